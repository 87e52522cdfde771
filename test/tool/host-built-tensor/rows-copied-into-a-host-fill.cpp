// Rows made from the program's vectors and copied into a batch filled on the
// host (`input[i] = torch::tensor(tokens[i])` in a loop) stay on the host with
// the batch: made on the device, each would come back across at its copy.
// The batch is moved once, where device code takes it. Negative: a row that
// device code also takes is made on the device.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  std::vector<std::vector<int64_t>> tokens = {{1, 2, 3}, {4, 5, 6}};
  torch::nn::Embedding embed(10, 4);
  auto input = torch::zeros({2, 3}, torch::kLong);
  for (size_t i = 0; i < tokens.size(); ++i)
    input[i] = torch::tensor(tokens[i], torch::kLong);
  // CHECK: input[i] = torch::tensor(tokens[i], torch::kLong);
  auto first = torch::tensor(tokens[0], torch::kLong);
  auto copy = torch::zeros({1, 3}, torch::kLong);
  copy[0] = first;
  // CHECK: auto first = torch::tensor(tokens[0], torch::TensorOptions(torch::kLong).device(device));
  std::cout << embed(input).sum().item<double>() + embed(first).sum().item<double>() << "\n";
  // CHECK: embed(input.to(device))
}
