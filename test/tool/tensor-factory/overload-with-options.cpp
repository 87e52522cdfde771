// A factory overload that takes no options gets the device through the
// overload declared beside it that does: under `using namespace torch;`,
// `tensor(1)` calls `at::tensor(int64_t)`, and `at::tensor(int64_t, const
// TensorOptions &)` is its twin. Matched by the callee's declaration, however
// it is written. The twin makes options' default dtype (float) where the
// overload without options names its own (`at::dtype(kInt)` for an int,
// kDouble for a double, kLong for `int64_t` indices): that dtype goes into the
// options with the device, or an index would become a float tensor.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

using namespace torch;

int main() {
  auto u = torch::rand({3});
  auto mixed = (tensor(1) - tensor(2) * u) * u;
  // CHECK: auto mixed = (tensor(1, torch::dtype(torch::kInt).device(target_device)) - tensor(2, torch::dtype(torch::kInt).device(target_device)) * u) * u;
  auto half = at::tensor(0.5);
  // CHECK: auto half = at::tensor(0.5, torch::dtype(torch::kDouble).device(target_device));
  const int64_t dim = 1;
  auto index = at::tensor({dim});
  // CHECK: auto index = at::tensor({dim}, torch::dtype(torch::kLong).device(target_device));
  return (mixed.sum() + half + u.index_select(0, index).sum()).item<float>() > 100;
}
