// A host-built tensor handed by its address (`Distribution(&logits)`, which
// keeps the pointer) or to a constructor by non-const reference is not moved
// there: `&logits.to(device)` takes the address of a temporary and does not
// compile, and the callee must see the caller's own tensor. It is moved at
// the device uses that follow (the edit compiles: %syntax-check).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Distribution {
  Distribution(const torch::Tensor *logits, int n) : logits(logits), n(n) {}
  const torch::Tensor *logits;
  int n;
};

struct Scaler {
  Scaler(torch::Tensor &t, float by) { t.mul_(by); }
};

int main() {
  torch::nn::Linear net(3, 1);
  auto input = torch::zeros({3});
  for (int i = 0; i < 3; ++i)
    input[i] = 2.0 * i;
  Distribution dist(&input, 3);
  // CHECK: Distribution dist(&input, 3);
  Scaler scaled(input, 0.5f);
  // CHECK: Scaler scaled(input, 0.5f);
  auto output = net->forward(input);
  // CHECK: auto output = net->forward(input.to(device));
  return dist.n + static_cast<int>(output.item<float>()) > 100;
}
