// Module holders (built-in layers and TORCH_MODULE holders) get ->to(device).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct BlockImpl : torch::nn::Module {
  BlockImpl() { lin = register_module("lin", torch::nn::Linear(3, 3)); }
  torch::Tensor forward(torch::Tensor x) { return lin(x); }
  torch::nn::Linear lin{nullptr};
};
TORCH_MODULE(Block);

int main() {
  torch::nn::Linear fc(5, 2);
  // CHECK: torch::nn::Linear fc(5, 2);
  // CHECK-NEXT: fc->to(device);
  Block block;
  // CHECK: Block block;
  // CHECK-NEXT: block->to(device);
  torch::nn::Sequential seq(torch::nn::Linear(2, 2), torch::nn::ReLU());
  // CHECK: torch::nn::Sequential seq(torch::nn::Linear(2, 2), torch::nn::ReLU());
  // CHECK-NEXT: seq->to(device);
  return 0;
}
