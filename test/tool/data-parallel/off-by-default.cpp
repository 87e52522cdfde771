// Without --data-parallel, forward calls are never rewritten.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>
// CHECK-NOT: data_parallel

int main() {
  torch::nn::Linear linear(4, 4);
  auto x = torch::ones({8, 4});
  for (int step = 0; step < 2; ++step) {
    auto out = linear(x);
    // CHECK: auto out = linear(x);
    out.sum().backward();
  }
  return 0;
}
