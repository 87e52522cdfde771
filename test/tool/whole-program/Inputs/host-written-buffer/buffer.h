#pragma once
#include <torch/torch.h>

// A sensor buffer its own code writes through the tensor's memory.
class Buffer {
public:
  Buffer();
  void record(const float *values);
  torch::Tensor latest() const;

private:
  torch::Tensor frame_;
};
