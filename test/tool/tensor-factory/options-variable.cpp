// A local options variable whose initialiser names no device is completed at
// the call; one that names a device is left alone.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto opts = torch::TensorOptions().dtype(torch::kFloat);
  auto a = torch::zeros({2}, opts);
  // CHECK: auto a = torch::zeros({2}, opts.device(device));
  auto placed = torch::TensorOptions().device(torch::kCPU);
  auto b = torch::zeros({2}, placed);
  // CHECK: auto b = torch::zeros({2}, placed);
  return a.sum() + b.sum();
}
