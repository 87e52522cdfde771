// A fill of the whole tensor from a number (`labels.fill_(1)`, a GAN's labels
// turned from fake to real) is one operation, done wherever the tensor is:
// the tensor is made on the device and filled there, not kept on the host and
// copied at each use. A fill of one element or row (`t[i].fill_(v)`) is the
// host's, element by element.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

int main() {
  torch::nn::Linear net(2, 1);
  auto out = torch::sigmoid(net->forward(torch::ones({4, 2}))).reshape({4});
  torch::Tensor labels = torch::zeros(4);
  // CHECK: torch::Tensor labels = torch::zeros(4, torch::device(device));
  auto fake = torch::binary_cross_entropy(out, labels);
  // CHECK: auto fake = torch::binary_cross_entropy(out, labels);
  labels.fill_(1);
  auto real = torch::binary_cross_entropy(out, labels);
  // CHECK: auto real = torch::binary_cross_entropy(out, labels);
  torch::Tensor mask = torch::zeros({4});
  for (int i = 0; i < 4; i += 2)
    mask[i].fill_(1);
  // CHECK: torch::Tensor mask = torch::zeros({4});
  std::cout << (fake + real).item<float>() + (out * mask.to(torch::kFloat)).sum().item<float>() << "\n";
  // CHECK: std::cout << (fake + real).item<float>() + (out * mask.to(device).to(torch::kFloat)).sum().item<float>() << "\n";
}
