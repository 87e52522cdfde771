// A module reached as const (a const holder or object, a shared_ptr to const)
// cannot call Module::to(), which is not a const member: it is reported, not
// given a move that would not compile. Found by the corpus run in LibTorch's
// own tests (`const auto multihead_attn_module = MultiheadAttention(options);`).
// A const shared_ptr to a non-const module is moved as usual.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

struct Net : torch::nn::Module {};

int main() {
  const auto attention = torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(4, 2));
  // CHECK: const auto attention = torch::nn::MultiheadAttention(torch::nn::MultiheadAttentionOptions(4, 2));
  // CHECK-NOT: attention->to(
  // WARN: const-module.cpp:[[@LINE-3]]:14: warning: module 'attention' is const, and Module::to() changes it: not moved (drop the const, or move the module before it becomes const) [model-placement]
  const Net object;
  // WARN: const-module.cpp:[[@LINE-1]]:13: warning: module 'object' is const
  std::shared_ptr<const Net> view = std::make_shared<Net>();
  // WARN: const-module.cpp:[[@LINE-1]]:30: warning: module 'view' is const
  const std::shared_ptr<Net> pointer = std::make_shared<Net>();
  // CHECK: pointer->to(device);
  return static_cast<int>(attention->parameters().size() + object.parameters().size() +
                          view->parameters().size() + pointer->parameters().size()) > 100;
}
