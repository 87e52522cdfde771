// --mode=registry registers the variables the rules would place with one
// todevice::Registry per function and moves each run of them with one call.
// RUN: %migrate --mode=registry %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate --mode=registry %t.cpp | diff %t.cpp -
#include <torch/torch.h>

// CHECK: #include <todevice/todevice.h>
// CHECK: const torch::Device device(
int main() {
  // CHECK: int main() {
  // CHECK-NEXT: todevice::Registry registry;
  auto net = std::make_shared<torch::nn::LinearImpl>(3, 1);
  // CHECK-NEXT: auto net = std::make_shared<torch::nn::LinearImpl>(3, 1);
  // CHECK-NEXT: registry.add(net);
  torch::nn::MSELoss loss_f;
  // CHECK-NEXT: torch::nn::MSELoss loss_f;
  // CHECK-NEXT: registry.add(loss_f);
  auto x = torch::randn({4, 3}), y = torch::zeros({4, 1});
  // CHECK-NEXT: auto x = torch::randn({4, 3}), y = torch::zeros({4, 1});
  // CHECK-NEXT: registry.add(x, y);
  // CHECK-NEXT: registry.to(device);
  auto loss = loss_f(net->forward(x), y);
  if (loss.item<float>() > 0) {
    auto inner = torch::ones({1});
    // CHECK: auto inner = torch::ones({1}, torch::device(device));
    loss = loss + inner.sum();
  }
  auto late = torch::rand({1});
  // CHECK: auto late = torch::rand({1});
  // CHECK-NEXT: registry.add(late);
  // CHECK-NEXT: registry.to(device);
  return static_cast<int>((loss + late).item<float>()) * 0;
}
