// A device tensor's pointer handed to a function that takes a pointer to
// const (`sum(const float *p, int n)`) is read on the host: it gets a .cpu()
// copy. Handed to one that takes a pointer to non-const, it may be written:
// reported at the line, never given a copy.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

float sum(const float *p, int n) {
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += p[i];
  return total;
}

void scale(float *p, int n) {
  for (int i = 0; i < n; ++i)
    p[i] *= 2;
}

float use(torch::Tensor weights) {
  float before = sum(weights.data_ptr<float>(), 4);
  // CHECK:      auto weights_host = weights.cpu();
  // CHECK-NEXT: float before = sum(weights_host.data_ptr<float>(), 4);
  scale(weights.data_ptr<float>(), 4);
  // CHECK: scale(weights.data_ptr<float>(), 4);
  // WARN: read-through-const-pointer.cpp:[[@LINE-2]]:9: warning: host code writes into 'weights' through data_ptr()
  return before;
}

int main() {
  torch::Tensor weights = torch::ones({4});
  return use(weights) == 4 ? 0 : 1;
}
