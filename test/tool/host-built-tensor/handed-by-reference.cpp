// A host-built tensor handed to the program's function by non-const
// reference (`normalize(input)` scales the caller's tensor in place) is not
// moved there: `input.to(device)` would be a temporary the reference cannot
// bind, and the function must change the caller's own tensor. It is moved at
// the device uses that follow; a const reference is a read and may take the
// copy.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

void normalize(torch::Tensor &t, float lo, float hi) { t.sub_(lo).div_(hi - lo); }
float total(const torch::Tensor &t) { return t.sum().item<float>(); }

int main() {
  torch::nn::Linear net(3, 1);
  auto input = torch::zeros({3});
  for (int i = 0; i < 3; ++i)
    input[i] = 2.0 * i;
  normalize(input, 0.0f, 4.0f);
  // CHECK: normalize(input, 0.0f, 4.0f);
  auto output = net->forward(input);
  // CHECK: auto output = net->forward(input.to(device));
  std::cout << total(input) + output.item<float>() << "\n";
  // CHECK: std::cout << total(input.to(device)) + output.item<float>() << "\n";
}
