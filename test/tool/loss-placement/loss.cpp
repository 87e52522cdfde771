// Loss modules are moved like models (they may hold tensors such as weights).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::nn::CrossEntropyLoss loss_f;
  // CHECK: torch::nn::CrossEntropyLoss loss_f;
  // CHECK-NEXT: loss_f->to(device);
  auto weights = torch::tensor({1.0, 2.0});
  torch::nn::NLLLoss weighted(torch::nn::NLLLossOptions().weight(weights));
  // CHECK: torch::nn::NLLLoss weighted(torch::nn::NLLLossOptions().weight(weights));
  // CHECK-NEXT: weighted->to(device);
  torch::nn::MSELoss mse;
  // CHECK: torch::nn::MSELoss mse;
  // CHECK-NEXT: mse->to(device);
  return 0;
}
