// A factory in a function template is rewritten once, in the template as
// written, not once per instantiation; the output compiles for every one.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

template <typename T>
torch::Tensor filled(T value) {
  return torch::full({2}, value);
  // CHECK: return torch::full({2}, value, torch::device(device));
  // CHECK-NOT: torch::device(device), torch::device(device)
}

template <int N>
struct Buffer {
  torch::Tensor data = torch::zeros({N});
  // CHECK: torch::Tensor data = torch::zeros({N}, torch::device(device));
};

int main() {
  auto a = filled(1.0) + filled(2.0f) + filled(3);
  Buffer<2> b2;
  Buffer<3> b3;
  return static_cast<int>(a.numel() + b2.data.numel() + b3.data.numel()) - 7;
}
