// Negative: submodules built inside a module (constructor or any member) move
// with their parent and are not moved separately; empty holders, null pointers
// and copies of another handle are not new modules.
// RUN: %migrate %s > %t.cpp
// RUN: diff %s %t.cpp
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() {
    torch::nn::Linear first(4, 4);
    fc1 = register_module("fc1", first);
    auto second = std::make_shared<torch::nn::LinearImpl>(4, 2);
    fc2 = register_module("fc2", torch::nn::Linear(second));
  }
  void grow() { register_module("extra", torch::nn::Linear(2, 2)); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

void helper(std::shared_ptr<Net> given) {
  torch::nn::Linear empty{nullptr};
  std::shared_ptr<Net> none;
  std::shared_ptr<Net> alias = given;
  (void)empty; (void)none; (void)alias;
}
