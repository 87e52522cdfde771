#pragma once
#include <torch/torch.h>

#include <vector>

// A rollout buffer that keeps its tensors on the device it is given. The
// program gives it only the CPU (main.cpp): its tensors are on the host by
// the program's choice, whatever this file says.
class Buffer {
public:
  explicit Buffer(torch::Device device);
  void remember(const torch::Tensor &observation);
  torch::Tensor observations() const;
  torch::Tensor returns() const;

private:
  std::vector<torch::Tensor> observations_;
  torch::Device device_;
};
