// A file that includes part of LibTorch (here <torch/script.h>, as LibTorch's
// own tests do) has no torch::cuda::is_available: the inserted declaration
// brings <torch/cuda.h> with it. Found by the corpus run; checked without the
// precompiled <torch/torch.h>, which would declare it anyway.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check-no-pch %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/script.h>
// CHECK: #include <torch/cuda.h>
// CHECK-NEXT: #include <torch/script.h>
// CHECK: const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);

torch::Tensor make() {
  return torch::ones({2});
  // CHECK: return torch::ones({2}, torch::device(device));
}
