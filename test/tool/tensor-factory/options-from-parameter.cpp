// Negative: options that come from a parameter cannot be seen; the call is left
// alone and a note says so (the caller's options are where the device goes).
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: diff %s %t.cpp
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// NOTE: options-from-parameter.cpp:[[@LINE+3]]:28: note: tensor options come from elsewhere; not rewritten {{.*}} [tensor-factory]
#include <torch/torch.h>
torch::Tensor make(const torch::TensorOptions &opts) {
  return torch::zeros({2}, opts);
}
