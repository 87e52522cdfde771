// `TensorOptions(torch::kCUDA)` keeps being options: only the device type in it
// becomes the device, so options chained after it still apply. Found by the
// corpus run (LibTorch's tensor_cuda.cpp), where replacing the whole cast gave
// `device.dtype(...)`, which does not compile. A Device cast is still replaced whole.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make(torch::Tensor t) {
  auto a = torch::empty({3, 4}, torch::TensorOptions(torch::kCUDA).dtype(torch::kDouble));
  // CHECK: auto a = torch::empty({3, 4}, torch::TensorOptions(device).dtype(torch::kDouble));
  auto b = t.to(torch::TensorOptions(torch::kCUDA));
  // CHECK: auto b = t.to(torch::TensorOptions(device));
  auto c = t.to(torch::Device(torch::kCUDA));
  // CHECK: auto c = t.to(device);
  return a.sum() + b.sum() + c.sum();
}
