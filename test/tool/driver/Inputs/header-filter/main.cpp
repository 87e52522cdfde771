#include <torch/torch.h>
#include <iostream>

#include "model.h"
#include "vendor.h"

int main() {
  torch::manual_seed(0);
  Net net;
  torch::Tensor x = make_batch(3);
  auto y = net->forward(x) + vendor_zeros().sum();
  std::cout << y.sum().item<float>() << "\n";
}
