// Code in an #if branch that is not taken is not parsed, so it is not changed;
// a macro that expands to a factory call is not rewritten (its body would
// change every use): its value is moved where it is used, with a note.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#define MAKE_ZEROS(n) torch::zeros({n})
// CHECK: #define MAKE_ZEROS(n) torch::zeros({n})

int main() {
#if 0
  auto never = torch::ones({1});
  // CHECK: auto never = torch::ones({1});
#else
  auto taken = torch::ones({1});
  // CHECK: auto taken = torch::ones({1}, torch::device(device));
#endif
  auto z = MAKE_ZEROS(2);
  // CHECK: auto z = MAKE_ZEROS(2).to(device);
  // NOTE: preprocessor.cpp:[[@LINE-2]]:12: {{warning|note}}: {{.*}}macro{{.*}} [tensor-factory]
  return static_cast<int>(taken.numel() + z.numel()) - 3;
}
