// A factory in a function given tensors is made where they are
// (`x.device()`), but not where a parameter the function assigns is: a
// caller may hand `Tensor &out` over undefined for the function to fill
// (`Tensor bler; simulate(..., bler);`), and an undefined tensor has no
// device ("tensor does not have a device"). Such a factory follows an input
// when one is in its class, else it gets the program's device.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

void simulate(const torch::Tensor &snr, int64_t points, torch::Tensor &rate) {
  auto errors = torch::zeros({points}, torch::kInt64);
  // CHECK: auto errors = torch::zeros({points}, torch::TensorOptions(torch::kInt64).device(device));
  auto blocks = torch::ones({points}, torch::kInt64);
  // CHECK: auto blocks = torch::ones({points}, torch::TensorOptions(torch::kInt64).device(device));
  auto scaled = torch::ones({points});
  // CHECK: auto scaled = torch::ones({points}, torch::device(snr.device()));
  const float level = (snr * scaled).mean().item<float>();
  errors += 1;
  rate = errors / blocks * level;
}

int main() {
  torch::Tensor rate;
  simulate(torch::rand({4}), 4, rate);
  std::cout << rate.sum().item<float>() << "\n";
  return 0;
}
