// A module built from one variable argument is a new module (Net built from n),
// not a copy of another module's handle: it is moved.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Net : torch::nn::Module {
  explicit Net(int64_t n) : fc(register_module("fc", torch::nn::Linear(n, 1))) {}
  torch::nn::Linear fc;
};

struct ConvNetImpl : torch::nn::Module {
  ConvNetImpl(int64_t classes) : fc(register_module("fc", torch::nn::Linear(4, classes))) {}
  torch::nn::Linear fc;
};
TORCH_MODULE(ConvNet);

int main() {
  const int64_t n = 4, num_classes = 10;
  Net net(n);
  // CHECK: Net net(n);
  // CHECK-NEXT: net.to(device);
  torch::nn::BatchNorm1d bn(n);
  // CHECK: torch::nn::BatchNorm1d bn(n);
  // CHECK-NEXT: bn->to(device);
  ConvNet model(num_classes);
  // CHECK: ConvNet model(num_classes);
  // CHECK-NEXT: model->to(device);
  auto shared = std::make_shared<Net>(n);
  // CHECK: auto shared = std::make_shared<Net>(n);
  // CHECK-NEXT: shared->to(device);
  return static_cast<int>(net.fc->weight.size(1) + bn->weight.size(0) + model->fc->weight.size(0)) - 18;
}
