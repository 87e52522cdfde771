// Negative: a dataset's per-sample code (get(), its constructor and member
// initialisers, a transform, a helper only they call) stays on the CPU: the
// data loader stacks the samples and the loop moves one batch per step.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor noise(int64_t n) { return torch::randn({n}); }
// CHECK: torch::Tensor noise(int64_t n) { return torch::randn({n}); }

torch::Tensor make_label(size_t i) { return torch::full({1}, static_cast<double>(i % 2)); }
// CHECK: torch::Tensor make_label(size_t i) { return torch::full({1}, static_cast<double>(i % 2)); }

struct Points : torch::data::datasets::Dataset<Points> {
  Points() : table(torch::rand({8, 3})) {}
  // CHECK: Points() : table(torch::rand({8, 3})) {}
  torch::data::Example<> get(size_t i) override {
    auto x = table[static_cast<int64_t>(i)] + noise(3) * torch::ones({3});
    // CHECK: auto x = table[static_cast<int64_t>(i)] + noise(3) * torch::ones({3});
    return {x, make_label(i)};
  }
  torch::optional<size_t> size() const override { return 8; }
  torch::Tensor table;
  torch::Tensor offset = torch::zeros({3});
  // CHECK: torch::Tensor offset = torch::zeros({3});
};

int main() {
  auto scale = torch::data::transforms::Lambda<torch::data::Example<>>(
      [](torch::data::Example<> e) { return torch::data::Example<>{e.data * torch::full({3}, 2.0), e.target}; });
  // CHECK: [](torch::data::Example<> e) { return torch::data::Example<>{e.data * torch::full({3}, 2.0), e.target}; });
  auto loader = torch::data::make_data_loader(
      Points().map(scale).map(torch::data::transforms::Stack<>()), 4);
  torch::nn::Linear model(3, 1);
  auto bias = torch::zeros({1});
  // CHECK: auto bias = torch::zeros({1}, torch::device(device));
  double sum = 0;
  for (auto &batch : *loader) {
    // CHECK: for (auto &batch : *loader) {
    // CHECK-NEXT: batch.data = batch.data.to(device);
    // CHECK-NEXT: batch.target = batch.target.to(device);
    sum += torch::mse_loss(model(batch.data) + bias, batch.target).item<double>();
  }
  return sum >= 0 ? 0 : 1;
}
