// A rollout buffer host code fills (`obs[step] = next_obs`, rows over host
// memory) is moved once, where the updates start, when the minibatch code
// selects from it with the same indices as from a device buffer
// (`b_logprobs.index_select(0, mb_idx)`): the indices are the device's, so
// the permutation is made there too, whatever order the two selections come
// in. A selection whose indices nothing else needs is made on the host
// (selected-on-the-host-before-the-move.cpp).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <vector>

int main() {
  torch::nn::Linear net(4, 1);
  auto obs = torch::zeros({8, 2, 4});
  auto logprobs = torch::zeros({8, 2});
  auto next_obs = torch::zeros({2, 4});
  std::vector<std::vector<float>> states(2, std::vector<float>(4));
  for (int step = 0; step < 8; ++step) {
    obs[step] = next_obs;
    logprobs[step] = net(next_obs).squeeze(1);
    for (int i = 0; i < 2; ++i) {
      for (int k = 0; k < 4; ++k)
        states[i][k] = step + i + k;
      next_obs[i] = torch::from_blob(states[i].data(), {4});
    }
  }
  auto b_obs = obs.view({-1, 4});
  // CHECK: auto b_obs = obs.view({-1, 4}).to(device);
  auto b_logprobs = logprobs.view(-1);
  float total = 0;
  for (int epoch = 0; epoch < 2; ++epoch) {
    auto b_idx = torch::randperm(b_obs.size(0));
    // CHECK: auto b_idx = torch::randperm(b_obs.size(0), torch::dtype(torch::kLong).device(device));
    auto mb_idx = b_idx.slice(0, 0, 8);
    auto out = net(b_obs.index_select(0, mb_idx)).squeeze(1);
    auto ratio = out - b_logprobs.index_select(0, mb_idx);
    total += ratio.sum().item<float>();
  }
  std::cout << total << "\n";
}
