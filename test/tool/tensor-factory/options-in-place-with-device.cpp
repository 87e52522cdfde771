// Negative: options built in place that name a device already stay as written.
// RUN: %migrate %s > %t.cpp
// RUN: diff %s %t.cpp
#include <torch/torch.h>

torch::Tensor make(torch::Device device) {
  auto a = torch::randint(0, 10, {15, 1}, torch::TensorOptions(device));
  auto b = torch::zeros({2}, torch::TensorOptions(torch::kFloat).device(device));
  auto c = torch::ones({2}, torch::TensorOptions("cpu"));
  return a.sum() + b.sum().to(a.device()) + c.sum().to(a.device());
}
