// Options written as an expression get .device(...) appended to them.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto a = torch::ones({2}, torch::dtype(torch::kLong));
  // CHECK: auto a = torch::ones({2}, torch::dtype(torch::kLong).device(device));
  auto b = torch::zeros({2}, torch::TensorOptions().dtype(torch::kFloat).requires_grad(true));
  // CHECK: auto b = torch::zeros({2}, torch::TensorOptions().dtype(torch::kFloat).requires_grad(true).device(device));
  auto c = torch::randn({2}, torch::requires_grad());
  // CHECK: auto c = torch::randn({2}, torch::requires_grad().device(device));
  bool wide = c.numel() > 1;
  auto d = torch::zeros({2}, wide ? torch::dtype(torch::kDouble) : torch::dtype(torch::kFloat));
  // CHECK: auto d = torch::zeros({2}, (wide ? torch::dtype(torch::kDouble) : torch::dtype(torch::kFloat)).device(device));
  return a.sum() + b.sum() + c.sum() + d.sum();
}
