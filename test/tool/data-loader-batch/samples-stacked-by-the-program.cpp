// Samples taken from a data set by hand (`auto sample = dataset.get(i)`)
// whose tensors the program gathers and stacks itself are not moved one by
// one: the stacked batch is moved, once (r9_tttaz: 16 copies a step became 1).
// A sample used as it is is still moved.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <vector>

struct Positions : torch::data::datasets::Dataset<Positions> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({4}, static_cast<float>(i)), torch::full({1}, static_cast<float>(i % 2))};
  }
  torch::optional<size_t> size() const override { return 8; }
};

int main() {
  Positions positions;
  torch::nn::Linear net(4, 1);
  std::vector<torch::Tensor> states, targets;
  for (size_t i = 0; i < 4; ++i) {
    auto sample = positions.get(i);
    // CHECK: auto sample = positions.get(i);
    // CHECK-NEXT: states.push_back(sample.data);
    states.push_back(sample.data);
    targets.push_back(sample.target);
  }
  auto batch = torch::stack(states);
  // CHECK: auto batch = torch::stack(states).to(device);
  auto loss = torch::mse_loss(net(batch), torch::stack(targets));
  auto single = positions.get(5);
  // CHECK: auto single = positions.get(5);
  // CHECK-NEXT: single.data = single.data.to(device);
  return static_cast<int>(loss.item<float>() + net(single.data).sum().item<float>());
}
