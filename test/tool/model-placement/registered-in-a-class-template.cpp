// A module written as a class template registers its submodules in its
// constructor, where `register_module(...)` on the template's own `this` is
// still a dependent call: they are registered, so the model's move in main
// moves them, and the constructor moves nothing. A member the template does
// not register is still moved where it is built.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

template <typename Block> class NetImpl : public torch::nn::Module {
public:
  explicit NetImpl(int64_t n);
  torch::Tensor forward(torch::Tensor x) { return head->forward(fc->forward(relu->forward(x))); }

private:
  torch::nn::Linear fc;
  torch::nn::ReLU relu;
  torch::nn::Linear head{nullptr};
};

template <typename Block> NetImpl<Block>::NetImpl(int64_t n) : fc(n, n) {
  register_module("fc", fc);
  register_module("relu", relu);
  head = torch::nn::Linear(n, 1);
  // CHECK: register_module("fc", fc);
  // CHECK-NEXT: register_module("relu", relu);
  // CHECK-NEXT: head = torch::nn::Linear(n, 1);
  // CHECK-NEXT: head->to(device);
  // NOTE-NOT: module member '{{fc|relu}}'
  // NOTE: note: module member 'head' of 'NetImpl' is not registered
  // NOTE-NOT: module member '{{fc|relu}}'
}

template <typename Block = int> class Net : public torch::nn::ModuleHolder<NetImpl<Block>> {
public:
  using torch::nn::ModuleHolder<NetImpl<Block>>::ModuleHolder;
};

int main() {
  Net<> net(4);
  // CHECK: Net<> net(4);
  // CHECK-NEXT: net->to(device);
  auto y = net->forward(torch::ones({2, 4}));
  std::cout << y.sum().item<float>() << "\n";
}
