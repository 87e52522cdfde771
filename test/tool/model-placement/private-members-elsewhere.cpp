// Negative: a class keeping its models private, whose constructor is in a
// header this run does not migrate (no --header-filter): code creating the
// object cannot move them (`trainer.gen->to(device)` would not compile), so
// nothing is written for them and a warning says why.
// RUN: %migrate %s -- -I%S/Inputs > %t.cpp 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: %strip %t.cpp | FileCheck --check-prefix=CHECK-OUT %s
// RUN: %migrate %t.cpp -- -I%S/Inputs 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#include "private_trainer.h"

int main() {
  PrivateTrainer trainer(4);
  // CHECK: private-members-elsewhere.cpp:[[@LINE-1]]:18: warning: module member 'gen' of 'PrivateTrainer' is not public and no constructor of it in a file this run migrates builds it: not moved (migrate the file defining its constructor too, e.g. with --header-filter) [model-placement]
  // CHECK-OUT: PrivateTrainer trainer(4);
  // CHECK-OUT-NOT: trainer.gen
  return trainer.width() == 4 ? 0 : 1;
}
