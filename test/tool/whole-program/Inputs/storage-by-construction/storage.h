#pragma once
#include <torch/torch.h>

// A rollout storage that makes its tensors on the device it is given.
class Storage {
public:
  Storage(int64_t steps, torch::Device device);
  void insert(int64_t step, const torch::Tensor &observation);
  void clear();
  const torch::Tensor &observations() const { return observations_; }

private:
  torch::Device device_;
  torch::Tensor observations_;
};
