// A module pointer made by a cast (`dynamic_cast<LinearImpl *>(m.get())` in a
// weight initialiser walking a model's modules) points to a module its owner
// holds: the owner is moved, not the pointer. Moving it would move a null
// pointer in the branches where the cast failed.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s --implicit-check-not="M->to("
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

void initialise(torch::nn::Module &model) {
  torch::NoGradGuard no_grad;
  for (auto &module : model.modules(/*include_self=*/false)) {
    if (auto M = dynamic_cast<torch::nn::LinearImpl *>(module.get())) {
      torch::nn::init::xavier_uniform_(M->weight);
    } else if (auto M = dynamic_cast<torch::nn::GRUImpl *>(module.get())) {
      for (auto &p : M->named_parameters(false))
        torch::nn::init::xavier_uniform_(p.value());
    }
  }
}

int main() {
  torch::nn::Sequential net(torch::nn::Linear(3, 4), torch::nn::Linear(4, 1));
  initialise(*net);
  // CHECK: initialise(*net);
  // CHECK-NEXT: net->to(device);
  auto y = net->forward(torch::randn({2, 3}));
  return y.size(0) == 2 ? 0 : 1;
}
