// Modules held as members of a plain (non-module) struct are moved where the
// struct's object is created, member by member (nested plain structs too);
// loss members are the loss rule's.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Net : torch::nn::Module {
  Net() : w(register_parameter("w", torch::ones({2}))) {}
  torch::Tensor w;
};

struct Heads {
  torch::nn::Linear proj{2, 2};
  torch::nn::CrossEntropyLoss loss;
};

struct Holder {
  Heads heads;
  Net net;
  std::shared_ptr<Net> shared = std::make_shared<Net>();
  int steps = 0;
};

Holder global_holder;

int main() {
  // CHECK: int main() {
  // CHECK-NEXT: global_holder.heads.proj->to(device);
  // CHECK-NEXT: global_holder.net.to(device);
  // CHECK-NEXT: global_holder.shared->to(device);
  // CHECK-NEXT: global_holder.heads.loss->to(device);
  Holder h;
  // CHECK: Holder h;
  // CHECK-NEXT: h.heads.proj->to(device);
  // CHECK-NEXT: h.net.to(device);
  // CHECK-NEXT: h.shared->to(device);
  // CHECK-NEXT: h.heads.loss->to(device);
  auto x = torch::ones({1, 2});
  return static_cast<int>(h.heads.proj(x).numel() + global_holder.net.w.numel()) - 4;
}
