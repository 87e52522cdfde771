// `net->to(torch::kF64)` converts the parameters' type and leaves them where
// they are: it is not the model's placement, so the model is still moved
// (found in a PPO program whose model stayed on the CPU). A move to a device
// variable, or to CUDA, is one.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::nn::Linear policy(2, 1);
  policy->to(torch::kF64);
  // CHECK:      torch::nn::Linear policy(2, 1);
  // CHECK-NEXT: policy->to(device);
  // CHECK-NEXT: policy->to(torch::kF64);
  torch::Device placed(torch::kCPU);
  torch::nn::Linear moved(2, 1);
  moved->to(placed, torch::kF64);
  // CHECK:      torch::nn::Linear moved(2, 1);
  // CHECK-NEXT: moved->to(placed, torch::kF64);
  auto x = torch::ones({1, 2}, torch::kF64);
  return (policy(x) + moved(x)).numel() == 1 ? 0 : 1;
}
