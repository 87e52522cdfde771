// A tensor move used as a statement does nothing: it is assigned back. A
// module's ->to() works in place and is left alone.
// RUN: %migrate --no-compile-check %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Holder { torch::Tensor weights; };

void place(torch::Tensor x, Holder &h, torch::nn::Linear &fc, torch::Device device) {
  x.to(device);
  // CHECK: x = x.to(device);
  // NOTE: assign-back.cpp:[[@LINE-2]]:3: note: the result of 'x.to(device)' was discarded {{.*}} [discarded-move]
  h.weights.cuda();
  // CHECK: h.weights = h.weights.to(device);
  fc->to(device);
  // CHECK: fc->to(device);
  auto kept = x.to(device);
  // CHECK: auto kept = x.to(device);
  (void)kept;
}
