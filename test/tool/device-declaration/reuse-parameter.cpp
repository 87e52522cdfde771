// A device parameter is used inside its function; elsewhere the inserted
// declaration is used, under a name that the parameter does not shadow.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

// CHECK: const torch::Device target_device(
torch::Tensor on(torch::Device device) {
  return torch::ones({2});
  // CHECK: return torch::ones({2}, torch::device(device));
}

int main() {
  auto x = torch::zeros({2});
  // CHECK: auto x = torch::zeros({2}, torch::device(target_device));
  return static_cast<int>(on(x.device()).sum().item<float>()) - 2;
}
