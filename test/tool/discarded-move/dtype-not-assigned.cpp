// Negative: a discarded dtype conversion (`x.to(torch::kDouble);`) is not a
// device move; assigning it back would change what the program computes on the
// CPU, so it is left as written.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

void convert(torch::Tensor x, torch::Tensor y) {
  x.to(torch::kDouble);
  // CHECK: {{^}}  x.to(torch::kDouble);
  y.to(torch::TensorOptions().dtype(torch::kHalf));
  // CHECK: {{^}}  y.to(torch::TensorOptions().dtype(torch::kHalf));
}
// ERR-NOT: discarded-move
