// Negative: a device variable pinned to the CPU (`torch::Device cpu(torch::kCPU)`)
// is the user's choice for that variable, not "the device": it is never reused
// for the migration, which declares its own.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

// CHECK: const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
const torch::Device host_device("cpu");

int main() {
  const torch::Device cpu(torch::kCPU);
  auto x = torch::ones({2});
  // CHECK: auto x = torch::ones({2}, torch::device(device));
  auto y = x.to(cpu) + torch::zeros({2}, torch::device(host_device));
  // CHECK: auto y = x.to(cpu) + torch::zeros({2}, torch::device(host_device));
  return static_cast<int>(y.numel()) - 2;
}
