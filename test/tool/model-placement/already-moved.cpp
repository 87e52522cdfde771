// Negative: a model the code already moves is left alone; moving it back to
// the CPU at the end does not count as placing it.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  torch::nn::Linear moved(2, 2);
  moved->to(dev);
  // CHECK: torch::nn::Linear moved(2, 2);
  // CHECK-NEXT: moved->to(dev);
  // CHECK-NEXT: torch::nn::Linear back(2, 2);
  torch::nn::Linear back(2, 2);
  // CHECK-NEXT: back->to(dev);
  back->to(torch::kCPU);
  return 0;
}
