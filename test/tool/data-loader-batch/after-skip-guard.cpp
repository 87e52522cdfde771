// A loop that skips batches with a guard before using them (`if (i >=
// max_batches) continue;`) moves each batch after the guard: a skipped batch
// is not copied. A guard that uses the batch is not skipped over.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  auto dataset = torch::data::datasets::TensorDataset(torch::randn({8, 2}))
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 2);
  torch::nn::Linear model(2, 1);
  int seen = 0;
  for (auto &batch : *loader) {
    if (seen >= 2) {
      continue;
    }
    if (seen < 0)
      break;
    ++seen;
    model(batch.data);
  }
  // CHECK:      if (seen < 0)
  // CHECK-NEXT:   break;
  // CHECK-NEXT: batch.data = batch.data.to(device);
  // CHECK-NEXT: ++seen;
  for (auto &batch : *loader) {
    if (batch.data.size(0) < 2)
      continue;
    model(batch.data);
  }
  // CHECK:      for (auto &batch : *loader) {
  // CHECK-NEXT:   batch.data = batch.data.to(device);
  // CHECK-NEXT:   if (batch.data.size(0) < 2)
  return 0;
}
