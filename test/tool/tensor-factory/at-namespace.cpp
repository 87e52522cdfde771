// at:: spellings are factories too.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

at::Tensor make() {
  auto a = at::zeros({2, 2});
  // CHECK: auto a = at::zeros({2, 2}, torch::device(device));
  auto b = at::ones({3}, at::kInt);
  // CHECK: auto b = at::ones({3}, torch::TensorOptions(at::kInt).device(device));
  return a.sum() + b.sum();
}
