// Never collide with an existing name: a local called device (of another type)
// makes the inserted declaration pick a fresh name.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int count(int device) { return device + 1; }

int main() {
  int device = 0;
  auto x = torch::zeros({2});
  // CHECK: const torch::Device target_device(
  // CHECK: auto x = torch::zeros({2}, torch::device(target_device));
  return count(device) - 1 + static_cast<int>(x.sum().item<float>());
}
