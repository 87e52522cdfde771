#include "buffer.h"

Buffer::Buffer(torch::Device device) : device_(device) {}

void Buffer::remember(const torch::Tensor &observation) {
  observations_.push_back(observation.to(device_));
}

torch::Tensor Buffer::observations() const { return torch::stack(observations_); }

torch::Tensor Buffer::returns() const { return torch::stack(observations_).sum(1).cumsum(0); }
