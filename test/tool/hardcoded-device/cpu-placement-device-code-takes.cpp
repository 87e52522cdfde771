// A CPU program that names the CPU where it places its tensors and model
// (`torch::Device device(torch::kCPU)`, `x.to(torch::kCPU)`,
// `torch::ones(n, torch::kCPU)`) means "where the model is": what device code
// takes is placed on the device instead, with a note. A CPU placement of what
// host code reads (`net(x).to(torch::kCPU)` read through data_ptr), a tensor
// over host memory (`from_blob` with CPU options) and a device variable that
// places such a host copy are kept, with a note.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <vector>

float run(torch::nn::Linear &net) {
  torch::Device device(torch::kCPU);
  // CHECK: torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  // CHECK-NEXT: net->to(device);
  // CHECK-NEXT: auto x = torch::ones({2, 4}, torch::device({{.*}})).to(device);
  // NOTE: cpu-placement-device-code-takes.cpp:[[@LINE-4]]:24: note: CPU device variable whose every placement device code takes: the device
  net->to(device);
  auto x = torch::ones({2, 4}).to(device);
  return net(x).sum().item<float>();
}

int main() {
  torch::nn::Linear net(4, 2);
  std::vector<float> values(8, 1.f);
  torch::Tensor t = torch::from_blob(values.data(), {2, 4}, torch::TensorOptions(torch::kCPU)).clone().to(torch::Device(torch::kCPU));
  // CHECK: torch::Tensor t = torch::from_blob(values.data(), {2, 4}, torch::TensorOptions(torch::kCPU)).clone().to(target_device);
  // NOTE: cpu-placement-device-code-takes.cpp:[[@LINE-2]]:82: note: explicit CPU placement kept
  // NOTE: cpu-placement-device-code-takes.cpp:[[@LINE-3]]:121: note: explicit CPU placement of a tensor device code takes: placed on the device
  torch::Tensor w = torch::ones({2, 4}, torch::kCPU);
  // CHECK: torch::Tensor w = torch::ones({2, 4}, target_device);
  torch::Tensor h = net(t + w).to(torch::kCPU);
  // CHECK: torch::Tensor h = net(t + w).to(torch::kCPU);
  // NOTE: cpu-placement-device-code-takes.cpp:[[@LINE-2]]:35: note: explicit CPU placement kept
  torch::Device cpu(torch::kCPU);
  // CHECK: torch::Device cpu(torch::kCPU);
  torch::Tensor y = net(w).to(cpu);
  // CHECK: torch::Tensor y = net(w).to(cpu);
  std::cout << h.data_ptr<float>()[0] + y.data_ptr<float>()[0] + run(net) << "\n";
  return 0;
}
