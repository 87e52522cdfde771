// Options written as a bare braced list (found in LibTorch's own tests by the
// corpus run): `.device(...)` cannot follow `{...}`, so the list gets the type
// it initialises. Before the fix, `{torch::kFloat32}.device(device)` did not compile.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto a = torch::tensor({1.}, {torch::kFloat32});
  // CHECK: auto a = torch::tensor({1.}, torch::TensorOptions{torch::kFloat32}.device(device));
  auto b = torch::zeros({2}, {torch::kDouble});
  // CHECK: auto b = torch::zeros({2}, torch::TensorOptions{torch::kDouble}.device(device));
  auto c = torch::full({2}, 1.5, {torch::kFloat});
  // CHECK: auto c = torch::full({2}, 1.5, torch::TensorOptions{torch::kFloat}.device(device));
  return a.sum() + b.sum() + c.sum();
}
