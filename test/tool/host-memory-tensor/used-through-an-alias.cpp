// A tensor made over host memory whose device use goes through another local
// initialised with it (`torch::Tensor index_dev = index;` and then
// `torch::gather(states, 0, index_dev)`, r9_gridrl) is moved where it is
// made, as if it were used directly; in a class template too.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <numeric>
#include <vector>

template <typename Action>
struct Replay {
  explicit Replay(int64_t n) : states(torch::zeros({n, 3})) {}
  torch::Tensor sample(int64_t k) {
    std::vector<int64_t> picks(states.size(0));
    std::iota(picks.begin(), picks.end(), 0);
    torch::Tensor index = torch::from_blob(picks.data(), {k}, torch::kLong);
    // CHECK: torch::Tensor index = torch::from_blob(picks.data(), {k}, torch::kLong).to(device);
    torch::Tensor index_dev = index;
    index_dev = index_dev.repeat_interleave(3).reshape({k, 3});
    return torch::gather(states, 0, index_dev);
  }
  torch::Tensor states;
};

int main() {
  torch::nn::Linear net(3, 1);
  Replay<int> replay(4);
  return static_cast<int>(net(replay.sample(2)).sum().item<float>());
}
