// Host data handed to a function of the program that takes it on the device
// only when it needs to (`if (explore) ...; net(state)`) stays on the host and
// is moved there. One that the function takes on the device at every turn of
// a loop (`old_log_probs.index_select(0, idx)` per minibatch) is made on the
// device where it is made, once, not moved at every turn.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

float update_epoch(torch::nn::Linear &policy, const torch::Tensor &old_log_probs) {
  float total = 0;
  for (int64_t start = 0; start < 8; start += 4) {
    auto idx = torch::arange(start, start + 4);
    auto ratio = policy(torch::ones({4, 2})).squeeze(1) - old_log_probs.index_select(0, idx);
    // CHECK: auto ratio = policy(torch::ones({4, 2}, torch::device(device))).squeeze(1) - old_log_probs.index_select(0, idx);
    total += ratio.sum().item<float>();
  }
  return total;
}

int main() {
  torch::manual_seed(0);
  torch::nn::Linear policy(2, 1);
  std::vector<float> log_probs = {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f};
  auto old_log_probs = torch::tensor(log_probs, torch::kFloat32);
  // CHECK: auto old_log_probs = torch::tensor(log_probs, torch::TensorOptions(torch::kFloat32).device(device));
  float total = 0;
  for (int epoch = 0; epoch < 3; ++epoch)
    total += update_epoch(policy, old_log_probs);
  std::cout << total << "\n";
  return 0;
}
