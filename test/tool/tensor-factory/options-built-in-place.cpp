// Options built in place, `torch::TensorOptions(torch::kFloat)`, get the
// device like any other options.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto a = torch::randint(0, 10, {15, 1}, torch::TensorOptions(torch::kFloat));
  // CHECK: auto a = torch::randint(0, 10, {15, 1}, torch::TensorOptions(torch::kFloat).device(device));
  auto b = torch::zeros({2}, torch::TensorOptions(torch::kLong).requires_grad(false));
  // CHECK: auto b = torch::zeros({2}, torch::TensorOptions(torch::kLong).requires_grad(false).device(device));
  auto c = torch::ones({2}, torch::TensorOptions(caffe2::TypeMeta::Make<float>()));
  // CHECK: auto c = torch::ones({2}, torch::TensorOptions(caffe2::TypeMeta::Make<float>()).device(device));
  return a.sum() + b.sum() + c.sum();
}
