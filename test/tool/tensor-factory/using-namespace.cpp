// Under `using namespace torch;` torch::device is visible unqualified, so the
// new device variable gets a name that cannot collide with it; unqualified
// dtypes are found through the AST.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
using namespace torch;

// CHECK: const torch::Device target_device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
Tensor make() {
  auto a = torch::randn({4});
  // CHECK: auto a = torch::randn({4}, torch::device(target_device));
  auto b = torch::zeros({4}, kLong);
  // CHECK: auto b = torch::zeros({4}, torch::TensorOptions(kLong).device(target_device));
  return a + b;
}
