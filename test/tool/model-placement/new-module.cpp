// A module made with new, held through a raw pointer (an agent owning
// `Model *model`), is moved right after the statement that stores it: through
// (*p)-> for a holder, p-> for a module class. Submodules made with new inside
// a module are its own business.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct PolicyImpl : torch::nn::Module {
  PolicyImpl() : fc(register_module("fc", torch::nn::Linear(2, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Policy);

struct Agent {
  Agent() {
    model = new Policy();
    // CHECK:      model = new Policy();
    // CHECK-NEXT: (*model)->to(device);
    optimizer = new torch::optim::Adam((*model)->parameters(), torch::optim::AdamOptions(1e-3));
  }
  ~Agent() {
    delete optimizer;
    delete model;
  }
  Policy *model = nullptr;
  torch::optim::Adam *optimizer = nullptr;
};

int main() {
  Agent agent;
  auto *critic = new PolicyImpl();
  // CHECK:      auto *critic = new PolicyImpl();
  // CHECK-NEXT: critic->to(device);
  auto x = torch::ones({1, 2});
  auto y = (*agent.model)->forward(x) + critic->forward(x);
  delete critic;
  return y.numel() == 1 ? 0 : 1;
}
