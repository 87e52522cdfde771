// A torch::Device the code already declares in scope is used, and none is added.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::zeros({2});
  // CHECK: auto x = torch::zeros({2}, torch::device(dev));
  torch::nn::Linear fc(2, 2);
  // CHECK: fc->to(dev);
  return 0;
}
// CHECK-NOT: const torch::Device
