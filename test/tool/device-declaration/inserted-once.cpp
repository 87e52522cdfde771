// One declaration, after the includes, serves every site in the file.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

// CHECK: #include <iostream>
// CHECK-EMPTY:
// CHECK-NEXT: // Where tensors, models and losses live (added by to-device-migrate).
// CHECK-NEXT: const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
// CHECK-NOT: const torch::Device
torch::Tensor helper() { return torch::ones({2}); }
// CHECK: return torch::ones({2}, torch::device(device));

int main() {
  auto x = torch::zeros({2});
  // CHECK: auto x = torch::zeros({2}, torch::device(device));
  std::cout << (x + helper()) << std::endl;
}
