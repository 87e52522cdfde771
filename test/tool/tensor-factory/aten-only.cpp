// A file that includes only ATen is spelled with at::, even though ATen's
// headers open a `torch` namespace too: there torch::Device, torch::device() and
// torch::kCUDA do not exist (that takes <torch/types.h>). Found by the corpus run
// in LibTorch's tensor_cuda.cpp; checked without the precompiled <torch/torch.h>,
// which would declare them anyway.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check-no-pch %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <ATen/ATen.h>
// CHECK: const at::Device device(at::hasCUDA() ? at::kCUDA : at::kCPU);

at::Tensor make() {
  auto a = at::zeros({2, 2});
  // CHECK: auto a = at::zeros({2, 2}, at::device(device));
  auto b = at::empty({3}, at::TensorOptions(at::kCUDA).dtype(at::kDouble));
  // CHECK: auto b = at::empty({3}, at::TensorOptions(device).dtype(at::kDouble));
  return a.sum() + b.sum();
}
