// A global device declared before the use is reused (one pinned to the CPU is
// not: see pinned-cpu-not-reused.cpp).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

static const torch::Device kDevice = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;

int main() {
  auto x = torch::zeros({2});
  // CHECK: auto x = torch::zeros({2}, torch::device(kDevice));
  return 0;
}
// CHECK-NOT: const torch::Device device
