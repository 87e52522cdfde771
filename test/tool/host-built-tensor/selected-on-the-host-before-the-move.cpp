// A replay buffer host code writes through an accessor stays on the host.
// The batch device code takes of it is a selection (`index_select` with
// indices made from host values): the selection is made on the host, with
// its indices, and only it is moved, not the whole buffer once per batch.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

class ReplayBuffer {
public:
  explicit ReplayBuffer(int64_t capacity) : rewards_(torch::zeros({capacity})) {}
  // CHECK: explicit ReplayBuffer(int64_t capacity) : rewards_(torch::zeros({capacity})) {}

  void add(int64_t slot, float reward) { rewards_.accessor<float, 1>()[slot] = reward; }

  torch::Tensor sample(const std::vector<int64_t> &slots) const {
    auto index = torch::tensor(slots, torch::kLong);
    // CHECK: auto index = torch::tensor(slots, torch::kLong);
    return rewards_.index_select(0, index);
    // CHECK: return rewards_.index_select(0, index).to(device);
  }

  torch::Tensor weighted(const std::vector<int64_t> &slots, torch::nn::Linear &scale) const {
    auto index = torch::tensor(slots, torch::kLong);
    // CHECK: auto index = torch::tensor(slots, torch::kLong);
    return scale(rewards_.index_select(0, index).unsqueeze(1));
    // CHECK: return scale(rewards_.index_select(0, index).to(device).unsqueeze(1));
  }

private:
  torch::Tensor rewards_;
};

int main() {
  torch::manual_seed(0);
  torch::nn::Linear scale(1, 1);
  ReplayBuffer buffer(16);
  for (int64_t i = 0; i < 16; ++i)
    buffer.add(i, 0.25f * i);
  std::vector<int64_t> slots = {1, 3, 5, 7};
  auto picked = buffer.weighted(slots, scale);
  std::cout << picked.sum().item<float>() << " " << buffer.sample(slots).sum().item<float>() << "\n";
  return 0;
}
