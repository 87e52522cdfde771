// Negative: *_like factories keep their source's device; conversions between
// existing tensors are not factories.
// RUN: %migrate %s > %t.cpp
// RUN: diff %s %t.cpp
#include <torch/torch.h>

torch::Tensor make(const torch::Tensor &x) {
  auto a = torch::zeros_like(x);
  auto b = torch::ones_like(x, torch::kFloat);
  auto c = torch::randn_like(x);
  auto d = torch::empty_like(x);
  return a + b + c + d + x.to(torch::kDouble);
}
