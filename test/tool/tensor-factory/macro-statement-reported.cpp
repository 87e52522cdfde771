// Negative: a macro that expands to a declaration, not a tensor value, is
// reported and left for a hand edit.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: diff %s %t.cpp
// RUN: FileCheck --check-prefix=WARN %s < %t.err
#include <torch/torch.h>

#define DECLARE_NOISE(name) torch::Tensor name = torch::randn({3})

torch::Tensor run() {
  DECLARE_NOISE(noise);
  // WARN: macro-statement-reported.cpp:[[@LINE-1]]:3: warning: tensor created on the CPU inside a macro expansion {{.*}} [tensor-factory]
  return noise;
}
