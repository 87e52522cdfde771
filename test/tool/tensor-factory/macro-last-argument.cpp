// A factory whose last argument is a macro from a system header (`INFINITY`,
// `M_PI`) gets its options after the macro's use, in this file: the place is
// the macro's expansion, not its definition.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <cmath>

torch::Tensor causalMask(int64_t length) {
  return torch::full({length, length}, -INFINITY).triu(1);
  // CHECK: return torch::full({length, length}, -INFINITY, torch::device(device)).triu(1);
}

int main() { return causalMask(3).numel() == 9 ? 0 : 1; }
