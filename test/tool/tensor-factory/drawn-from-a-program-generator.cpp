// A factory the program hands a generator of its own
// (`at::detail::createCPUGenerator(seed)`) draws on the CPU, and a device
// tensor cannot take a CPU generator (CUDA wants a CUDA one): it is made on
// the CPU, with the same numbers, and moved. A factory without a generator
// gets the device in its options as always.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <ATen/CPUGeneratorImpl.h>
#include <iostream>
int main() {
  torch::nn::Linear net(4, 1);
  auto gen = at::detail::createCPUGenerator(7);
  auto noise = torch::normal(0, .5, {3, 4}, gen);
  // CHECK: auto noise = torch::normal(0, .5, {3, 4}, gen).to(device);
  auto more = torch::randn({3, 4}, gen);
  // CHECK: auto more = torch::randn({3, 4}, gen).to(device);
  auto plain = torch::randn({3, 4});
  // CHECK: auto plain = torch::randn({3, 4}, torch::device(device));
  std::cout << net(noise + more + plain).sum().item<float>() << "\n";
  return 0;
}
