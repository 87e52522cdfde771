// A factory overload that takes no options gets the device through the
// overload declared beside it that does: under `using namespace torch;`,
// `tensor(1)` calls `at::tensor(int64_t)`, and `at::tensor(int64_t, const
// TensorOptions &)` is its twin. Matched by the callee's declaration, however
// it is written.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

using namespace torch;

int main() {
  auto u = torch::rand({3});
  auto mixed = (tensor(1) - tensor(2) * u) * u;
  // CHECK: auto mixed = (tensor(1, torch::device(target_device)) - tensor(2, torch::device(target_device)) * u) * u;
  auto half = at::tensor(0.5);
  // CHECK: auto half = at::tensor(0.5, torch::device(target_device));
  return (mixed.sum() + half).item<float>() > 100;
}
