// Negative: a variable initialised from another module variable shares that
// module (holders and shared_ptrs are handles): it is not moved a second time.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

int main() {
  torch::nn::Linear fc(2, 2);
  // CHECK: torch::nn::Linear fc(2, 2);
  // CHECK-NEXT: fc->to(device);
  auto alias = fc;
  torch::nn::Linear same(fc);
  auto net = std::make_shared<torch::nn::LinearImpl>(2, 2);
  // CHECK: net->to(device);
  std::shared_ptr<torch::nn::LinearImpl> other(net);
  // CHECK-NOT: alias->to(
  // CHECK-NOT: same->to(
  // CHECK-NOT: other->to(
  return static_cast<int>(alias->weight.size(0) + same->weight.size(0) + other->weight.size(0)) - 6;
}
