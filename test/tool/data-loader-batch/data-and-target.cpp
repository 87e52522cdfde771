// data and target are both moved; a const loop variable gets fresh local
// copies and its uses are renamed.
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

int main() {
  auto loader = torch::data::make_data_loader(
      Pairs().map(torch::data::transforms::Stack<>()), 3);
  torch::nn::Linear model(2, 1);
  for (auto &batch : *loader) {
    // CHECK: for (auto &batch : *loader) {
    // CHECK-NEXT: batch.data = batch.data.to(device);
    // CHECK-NEXT: batch.target = batch.target.to(device);
    auto loss = torch::mse_loss(model(batch.data), batch.target);
    (void)loss;
  }
  for (const auto &batch : *loader) {
    // CHECK: for (const auto &batch : *loader) {
    // CHECK-NEXT: auto batch_data = batch.data.to(device);
    // CHECK-NEXT: auto batch_target = batch.target.to(device);
    // CHECK-NEXT: auto loss = torch::mse_loss(model(batch_data), batch_target);
    auto loss = torch::mse_loss(model(batch.data), batch.target);
    (void)loss;
  }
  return 0;
}
