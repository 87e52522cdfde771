// Negative: calls whose options already name a device are not changed, and a
// file with nothing to change comes out byte-identical.
// RUN: %migrate %s > %t.cpp
// RUN: diff %s %t.cpp
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

torch::Tensor make(torch::Device device) {
  auto a = torch::randn({2}, torch::device(device));
  auto b = torch::zeros({2}, torch::TensorOptions().dtype(torch::kFloat).device(device));
  auto c = torch::ones({2}, torch::dtype(torch::kLong).device(torch::kCPU));
  auto d = torch::empty({2}, torch::kCPU);
  auto e = torch::full({2}, 1.0, torch::TensorOptions(device));
  auto f = torch::ones({2}, torch::device(device).dtype(torch::kFloat));
  return a.sum() + b.sum() + c.sum() + d.numel() + e.sum() + f.sum();
}
