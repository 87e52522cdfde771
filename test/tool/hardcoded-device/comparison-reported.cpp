// Negative: a device type compared with, not placed on, stays as written and
// is reported.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: diff %s %t.cpp
// RUN: FileCheck --check-prefix=WARN %s < %t.err
#include <torch/torch.h>

bool on_gpu(const torch::Tensor &x) {
  return x.device().type() == torch::kCUDA;
  // WARN: comparison-reported.cpp:[[@LINE-1]]:31: warning: hard-coded CUDA device type; not rewritten {{.*}} [hardcoded-device]
}
