// A `*_like` factory of a buffer host code fills (`torch::zeros_like(rewards)`
// with the rewards written step by step) takes only its shape and dtype: the
// new tensor is made on the device through its options, instead of the
// buffer being copied there to lend its shape. Options the program gives
// (`torch::kFloat`) keep the copy of the operand.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::nn::Linear critic(4, 1);
  auto values = torch::zeros({8});
  auto rewards = torch::zeros({8});
  for (int step = 0; step < 8; ++step) {
    values[step] = critic(torch::ones({1, 4}) * step).squeeze();
    rewards[step] = static_cast<float>(step % 3);
  }
  auto advantages = torch::zeros_like(rewards);
  // CHECK: auto advantages = torch::zeros_like(rewards, torch::device(device));
  auto scale = torch::ones_like(rewards, torch::kFloat);
  // CHECK: auto scale = torch::ones_like(rewards.to(device), torch::kFloat);
  advantages = advantages + (values - rewards) * scale;
  std::cout << advantages.sum().item<float>() << "\n";
  return 0;
}
