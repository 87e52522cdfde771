// A model made with std::make_shared is moved right after its declaration.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(4, 2)); }
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  auto net = std::make_shared<Net>();
  // CHECK: auto net = std::make_shared<Net>();
  // CHECK-NEXT: net->to(device);
  // CHECK-NEXT: torch::optim::SGD optimizer(net->parameters(), 0.1);
  torch::optim::SGD optimizer(net->parameters(), 0.1);
  std::shared_ptr<Net> other = std::make_shared<Net>(); // a second model
  // CHECK: std::shared_ptr<Net> other = std::make_shared<Net>(); // a second model
  // CHECK-NEXT: other->to(device);
  return 0;
}
