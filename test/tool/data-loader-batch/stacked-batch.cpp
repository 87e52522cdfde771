// Batches of a loader are moved once at the top of the loop body, only the
// fields the body uses.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  auto dataset = torch::data::datasets::TensorDataset({torch::randn({8, 3})})
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 4);
  for (auto &batch : *loader) {
    // CHECK: for (auto &batch : *loader) {
    // CHECK-NEXT: batch.data = batch.data.to(device);
    // CHECK-NOT: batch.target
    auto doubled = batch.data * 2;
    auto summed = batch.data.sum();
    (void)doubled; (void)summed;
  }
  return 0;
}
