#pragma once
#include <torch/torch.h>

#include <vector>

// A rollout buffer the program keeps on the host by choice: every tensor it
// remembers is copied to `device_`, which only ever names the CPU.
class Buffer {
public:
  Buffer() : device_(torch::kCPU) {}
  void remember(const torch::Tensor &observation) { observations_.push_back(observation.to(device_)); }
  torch::Tensor observations() const { return torch::stack(observations_); }
  torch::Tensor returns() const { return torch::stack(observations_).sum(1).cumsum(0); }

private:
  std::vector<torch::Tensor> observations_;
  torch::Device device_;
};
