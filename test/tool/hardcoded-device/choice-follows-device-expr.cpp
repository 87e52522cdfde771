// With --device-expr, a program's own availability choice that makes a
// torch::Device becomes the device expression, so TODEVICE picks the device
// (a program written for CUDA, checked on the simulator: docs/simulator.md).
// A choice kept in a DeviceType cannot hold a Device and stays; without
// --device-expr every choice stays (portable-and-cpu.cpp).
// RUN: %migrate --rules=hardcoded-device --device-expr='todevice::default_device()' %s | %strip > %t.cpp
// RUN: FileCheck %s < %t.cpp
// RUN: %syntax-check %t.cpp
// RUN: %migrate --rules=hardcoded-device --device-expr='todevice::default_device()' %t.cpp | diff %t.cpp -
#include <torch/torch.h>
// CHECK: #include <todevice/todevice.h>

int main() {
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  // CHECK: torch::Device device(todevice::default_device());
  torch::Device second = (torch::cuda::is_available() ? torch::Device(torch::kCUDA) : torch::Device(torch::kCPU));
  // CHECK: torch::Device second = (todevice::default_device());
  torch::DeviceType type = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  // CHECK: torch::DeviceType type = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  auto x = torch::ones({2}, torch::device(device));
  return x.device() == second && type != torch::kCPU ? 0 : 1;
}
