// The declaration goes after the includes, but not into a conditional block
// the first use is not in (`#ifndef NDEBUG` around debug-only includes,
// r9_heatpinn): there another configuration would not declare it. It goes
// after the block's #endif, and the file compiles with NDEBUG defined too.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %syntax-check -DNDEBUG %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

#ifndef NDEBUG
  #include <iostream>
#endif
// CHECK: {{^}}#ifndef NDEBUG
// CHECK-NEXT: #include <iostream>
// CHECK-NEXT: #endif
// CHECK-NEXT: // Where tensors, models and losses live (added by to-device-migrate).
// CHECK-NEXT: const torch::Device device(

torch::Tensor zeros_like_input() { return torch::zeros({2}); }

int main() {
  torch::nn::Linear net(2, 1);
  return static_cast<int>(net(zeros_like_input()).sum().item<float>());
}
