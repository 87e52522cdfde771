// A buffer host code fills step by step (an RL rollout's rewards, written
// one element at a time) that a later loop takes on the device at every
// turn (`rewards[t]` in the advantages' recursion) is moved once, in front
// of that loop, not once per turn. A loop that also reads it on the host, or
// writes it, keeps the move at each use.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

int main() {
  const int steps = 8;
  torch::nn::Linear critic(4, 1);
  auto values = torch::zeros({steps});
  auto rewards = torch::zeros({steps});
  for (int iteration = 0; iteration < 3; ++iteration) {
    for (int step = 0; step < steps; ++step) {
      values[step] = critic(torch::ones({1, 4}) * step).squeeze();
      rewards[step] = static_cast<float>(step % 3);
    }
    auto advantages = torch::zeros({steps});
    auto last = torch::zeros({1});
    for (int t = steps - 1; t >= 0; --t) {
      auto delta = rewards[t] + 0.99 * last - values[t];
      advantages[t] = delta;
      last = delta;
    }
    // CHECK: auto rewards_device = rewards.to(device);
    // CHECK-NEXT: for (int t = steps - 1; t >= 0; --t) {
    // CHECK-NEXT: auto delta = rewards_device[t] + 0.99 * last - values[t];
    float total = 0;
    for (int t = 0; t < steps; ++t) {
      total += rewards[t].item<float>();
      advantages[t] += rewards[t];
    }
    // CHECK: for (int t = 0; t < steps; ++t) {
    // CHECK-NEXT: total += rewards[t].item<float>();
    // CHECK-NEXT: advantages[t] += rewards[t].to(device);
    std::cout << advantages.sum().item<float>() + total << "\n";
  }
  return 0;
}
