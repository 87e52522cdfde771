// Tensors in class members: default member initialisers and constructor
// initialiser lists get the device; a module member built in a module's
// constructor is moved with its parent, not on its own.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct State {
  torch::Tensor mean = torch::zeros({3});
  // CHECK: torch::Tensor mean = torch::zeros({3}, torch::device(device));
  torch::Tensor scale;
  State() : scale(torch::ones({3})) {}
  // CHECK: State() : scale(torch::ones({3}, torch::device(device))) {}
};

struct Net : torch::nn::Module {
  Net() { fc = register_module("fc", torch::nn::Linear(3, 1)); }
  // CHECK: Net() { fc = register_module("fc", torch::nn::Linear(3, 1)); }
  torch::nn::Linear fc{nullptr};
};

int main() {
  State s;
  auto net = std::make_shared<Net>();
  // CHECK: net->to(device);
  return static_cast<int>(net->fc(s.mean - s.scale).numel()) - 1;
}
