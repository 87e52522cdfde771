// A loader whose batches are a type of the program's (a custom collation
// into a struct, an Example holding a pair) gets the tensors its loop body
// uses moved at the top of the body, each once, however deep in the batch.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({2}, static_cast<double>(i)), torch::full({1}, 1.0)};
  }
  torch::optional<size_t> size() const override { return 6; }
};

struct Rollout {
  torch::Tensor observations;
  std::pair<torch::Tensor, torch::Tensor> returns;
};

struct Collate
    : torch::data::transforms::BatchTransform<std::vector<torch::data::Example<>>, Rollout> {
  Rollout apply_batch(std::vector<torch::data::Example<>> batch) override {
    std::vector<torch::Tensor> data, targets;
    for (auto &example : batch) {
      data.push_back(example.data);
      targets.push_back(example.target);
    }
    torch::Tensor target = torch::stack(targets);
    return {torch::stack(data), {target, target * 2}};
  }
};

int main() {
  auto loader = torch::data::make_data_loader(Pairs().map(Collate()), 3);
  torch::nn::Linear model(2, 1);
  float total = 0;
  for (auto &rollout : *loader) {
    // CHECK:      for (auto &rollout : *loader) {
    // CHECK-NEXT:   rollout.observations = rollout.observations.to(device);
    // CHECK-NEXT:   rollout.returns.first = rollout.returns.first.to(device);
    // CHECK-NEXT:   rollout.returns.second = rollout.returns.second.to(device);
    auto out = model(rollout.observations);
    total += (out - rollout.returns.first + rollout.returns.second).sum().item<float>();
  }
  return total > 0 ? 0 : 1;
}
