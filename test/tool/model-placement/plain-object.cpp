// A module held by value is moved with .to(device).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : w(register_parameter("w", torch::ones({2}))) {}
  torch::Tensor w;
};

int main() {
  Net net;
  // CHECK: Net net;
  // CHECK-NEXT: net.to(device);
  return static_cast<int>(net.w.sum().item<float>()) - 2;
}
