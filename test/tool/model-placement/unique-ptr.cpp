// A model held by a std::unique_ptr, made with std::make_unique or reset with
// new, is moved right after the statement that makes it.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(3, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

int main() {
  auto model = std::make_unique<Net>();
  // CHECK:      auto model = std::make_unique<Net>();
  // CHECK-NEXT: model->to(device);
  std::unique_ptr<Net> spare;
  // CHECK:      std::unique_ptr<Net> spare;
  // CHECK-NOT:  spare->to(device);
  spare.reset(new Net());
  // CHECK:      spare.reset(new Net());
  // CHECK-NEXT: spare->to(device);
  auto x = torch::ones({2, 3});
  return (model->forward(x) + spare->forward(x)).numel() == 2 ? 0 : 1;
}
