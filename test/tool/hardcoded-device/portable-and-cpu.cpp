// Negative: a device already chosen at run time is left alone; explicit CPU
// placements are kept and reported as notes; a comparison with kCUDA is not a
// placement.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: diff %s %t.cpp
// RUN: FileCheck %s < %t.err
#include <torch/torch.h>

bool on_gpu(const torch::Tensor &t) { return t.device().type() == torch::kCUDA; }

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::ones({2}, torch::device(device));
  auto back = x.to(torch::kCPU);
  // CHECK: portable-and-cpu.cpp:[[@LINE-1]]:20: note: explicit CPU placement kept {{.*}}[hardcoded-device]
  return on_gpu(back) ? 1 : 0;
}
