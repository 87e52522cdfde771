// A factory combined with a host copy the program asks for (`.cpu()`), which
// nothing moves back to the device, is made on the host too: on the device
// it would meet the host tensor in one operation. A factory whose tensor
// meets the module still gets the device.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::nn::Linear net(3, 1);
  auto scores = net->forward(torch::ones({2, 3}));
  // CHECK: auto scores = net->forward(torch::ones({2, 3}, torch::device(device)));
  auto host = scores.cpu();
  auto shifted = host + torch::full({2, 1}, 0.5);
  // CHECK: auto shifted = host + torch::full({2, 1}, 0.5);
  std::printf("%f\n", shifted.sum().item<float>());
}
