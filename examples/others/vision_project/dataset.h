#pragma once
#include <torch/torch.h>

class ShapesDataset : public torch::data::datasets::Dataset<ShapesDataset> {
public:
  explicit ShapesDataset(int64_t count) : count_(count) {}
  torch::data::Example<> get(size_t index) override;
  torch::optional<size_t> size() const override { return static_cast<size_t>(count_); }

private:
  int64_t count_;
};
