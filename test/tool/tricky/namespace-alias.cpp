// `namespace F = torch::nn::functional;` and a namespace alias for torch
// itself: calls are recognised through the alias and rewritten as spelled.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

namespace F = torch::nn::functional;
namespace T = torch;

int main() {
  auto x = T::randn({4, 3});
  // CHECK: auto x = T::randn({4, 3}, torch::device(device));
  auto y = F::relu(x) + F::softmax(x, F::SoftmaxFuncOptions(1));
  // CHECK: auto y = F::relu(x) + F::softmax(x, F::SoftmaxFuncOptions(1));
  return static_cast<int>(y.numel()) - 12;
}
