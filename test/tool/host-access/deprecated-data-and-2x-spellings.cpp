// Every method that hands host code a tensor's memory is a host access: the
// deprecated `data<T>()` (an inference program copying a policy into a
// std::vector through it read device memory on the simulator) like
// `data_ptr<T>()`; `data()` without a type gives a tensor and is not one.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <vector>

std::vector<float> policy(torch::nn::Linear &net) {
  torch::Tensor probs = torch::exp(net->forward(torch::ones({1, 4})));
  std::vector<float> out(probs.data<float>(), probs.data<float>() + probs.numel());
  // CHECK: auto probs_host = probs.cpu();
  // CHECK-NEXT: std::vector<float> out(probs_host.data<float>(), probs_host.data<float>() + probs.numel());
  torch::Tensor detached = probs.data();
  // CHECK: torch::Tensor detached = probs.data();
  std::cout << detached.sum().item<float>() << "\n";
  return out;
}

int main() {
  torch::nn::Linear net(4, 3);
  std::cout << policy(net).size() << "\n";
}
