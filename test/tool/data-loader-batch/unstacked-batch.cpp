// A loader without a Stack transform gives each batch as the examples
// themselves (`std::vector<Example<>>`); a program that stacks them by hand
// (`data.push_back(e.data)` for each example, then `torch::stack(data)`) gets
// the stacked batch moved, once per batch, not each example: one copy per
// tensor instead of one per example.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <iostream>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({2}, static_cast<double>(i)), torch::full({1}, 0.5 * i)};
  }
  torch::optional<size_t> size() const override { return 8; }
};

int main() {
  auto loader = torch::data::make_data_loader(Points(), 4);
  torch::nn::Linear model(2, 1);
  float total = 0;
  for (auto &batch : *loader) {
    std::vector<torch::Tensor> data, targets;
    for (auto &example : batch) {
      data.push_back(example.data);
      targets.push_back(example.target.unsqueeze(0));
    }
    // CHECK:      for (auto &example : batch) {
    // CHECK-NEXT:   data.push_back(example.data);
    // CHECK-NEXT:   targets.push_back(example.target.unsqueeze(0));
    // CHECK-NEXT: }
    auto inputs = torch::stack(data);
    auto labels = torch::cat(targets);
    // CHECK:      auto inputs = torch::stack(data).to(device);
    // CHECK-NEXT: auto labels = torch::cat(targets).to(device);
    total += torch::mse_loss(model(inputs), labels).item<float>();
  }
  std::cout << total << "\n";
  return 0;
}
