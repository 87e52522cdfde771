// A loop whose body is one statement without braces (`for (auto &batch :
// *loader) total += net(batch.data)...;`) gets braces around the batch's move
// and that statement: its batch was left on the host before, unmoved and
// unreported.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  auto dataset = torch::data::datasets::TensorDataset(torch::randn({8, 3}))
                     .map(torch::data::transforms::Stack<torch::data::TensorExample>());
  auto loader = torch::data::make_data_loader(std::move(dataset), 4);
  torch::nn::Linear net(3, 1);
  float total = 0;
  for (auto &batch : *loader)
    total += net(batch.data).sum().item<float>();
  // CHECK:      for (auto &batch : *loader) {
  // CHECK-NEXT:   batch.data = batch.data.to(device);
  // CHECK-NEXT:   total += net(batch.data).sum().item<float>();
  // CHECK-NEXT: }
  return total == total ? 0 : 1;
}
