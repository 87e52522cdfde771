#pragma once
#include <torch/torch.h>
#include <utility>

// A graph parsed on the host: its members are filled element by element.
class Graph {
public:
  explicit Graph(int64_t nodes);
  const torch::Tensor &edges() const { return edges_; }
  std::pair<torch::Tensor, torch::Tensor> split() const;

private:
  torch::Tensor edges_;
  torch::Tensor features_;
};
