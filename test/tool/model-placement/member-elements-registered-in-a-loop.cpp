// A container member declared as a count of empty holders, whose elements
// the constructor's body assigns (`layers[i] = register_module(...)`), is not
// built by its declaration: nothing is moved at the start of the body, where
// the holders are still empty. Registered elements are left to Module::to()
// of their parent; an element assigned without registering is moved where
// it is assigned, with a note.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

constexpr int64_t kLayers = 2;

struct StackImpl : torch::nn::Module {
  StackImpl() {
    for (int64_t i = 0; i < kLayers; i++)
      convs[i] = register_module("conv" + std::to_string(i), torch::nn::Conv2d(1, 1, 1));
  }
  // CHECK:      StackImpl() {
  // CHECK-NEXT: for (int64_t i = 0; i < kLayers; i++)
  // CHECK-NEXT: convs[i] = register_module(
  // CHECK-NEXT: }
  torch::Tensor forward(torch::Tensor x) {
    for (auto &conv : convs)
      x = conv(x);
    return x;
  }
  std::vector<torch::nn::Conv2d> convs{kLayers, nullptr};
};
TORCH_MODULE(Stack);
// DIAG-NOT: module member 'convs' of 'StackImpl' is not registered

struct LooseImpl : torch::nn::Module {
  LooseImpl() {
    for (int64_t i = 0; i < kLayers; i++)
      heads[i] = torch::nn::Linear(1, 1);
  }
  // DIAG: member-elements-registered-in-a-loop.cpp:[[@LINE-2]]:7: note: module member 'heads' of 'LooseImpl' is not registered
  // CHECK:      LooseImpl() {
  // CHECK-NEXT: for (int64_t i = 0; i < kLayers; i++) {
  // CHECK-NEXT: heads[i] = torch::nn::Linear(1, 1);
  // CHECK-NEXT: heads[i]->to(device);
  // CHECK-NEXT: }
  // CHECK-NEXT: }
  torch::Tensor forward(torch::Tensor x) { return heads[0](x); }
  std::vector<torch::nn::Linear> heads{kLayers, nullptr};
};
TORCH_MODULE(Loose);

int main() {
  Stack net;
  Loose loose;
  auto y = net(torch::ones({1, 1, 2, 2}));
  return loose(torch::ones({1, 1})).numel() == 1 && y.numel() == 4 ? 0 : 1;
}
