// Negative: without --mode=registry nothing mentions the registry.
// RUN: %migrate %s | %strip | FileCheck %s
// CHECK-NOT: todevice
// CHECK: auto x = torch::randn({4, 3}, torch::device(device));
// CHECK-NOT: todevice
#include <torch/torch.h>
int main() {
  auto x = torch::randn({4, 3});
  return static_cast<int>(x.numel()) - 12;
}
