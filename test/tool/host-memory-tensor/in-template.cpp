// from_blob in a function template (a helper turning any std::vector<T> into
// a tensor): the call is resolved only in each instantiation, so it is found
// there and rewritten once, at the template.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <vector>

template <typename T>
torch::Tensor toTensor(std::vector<T> input) {
  return torch::from_blob(input.data(), {1, static_cast<long>(input.size())},
                          torch::TensorOptions().dtype<T>())
      .clone();
}
// CHECK:      return torch::from_blob(input.data(), {1, static_cast<long>(input.size())},
// CHECK-NEXT:                         torch::TensorOptions().dtype<T>()).to(device)
// CHECK-NEXT:     .clone();

int main() {
  torch::nn::Linear fc(2, 1);
  auto a = toTensor(std::vector<float>{1, 2});
  auto b = toTensor(std::vector<double>{3, 4});
  return (fc(a) + b.sum()).numel() == 1 ? 0 : 1;
}
