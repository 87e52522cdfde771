// A dtype passed where options are expected becomes explicit TensorOptions
// with the device added.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto y = torch::zeros({3}, torch::kFloat);
  // CHECK: auto y = torch::zeros({3}, torch::TensorOptions(torch::kFloat).device(device));
  auto labels = torch::randint(0, 2, {8}, torch::kLong);
  // CHECK: auto labels = torch::randint(0, 2, {8}, torch::TensorOptions(torch::kLong).device(device));
  auto z = torch::ones({2}, at::kDouble);
  // CHECK: auto z = torch::ones({2}, torch::TensorOptions(at::kDouble).device(device));
  return y.sum() + labels.sum() + z.sum();
}
