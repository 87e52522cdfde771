// A factory in a user macro's body: the macro stays as written (its other
// uses may want the CPU) and its value is moved where it is used, in
// parentheses when the expansion is not a postfix expression.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#define MAKE_NOISE(n) torch::randn({n})
#define SCALED_NOISE(n) torch::randn({n}) * 2
#define ZEROS torch::zeros({3})
// CHECK: #define MAKE_NOISE(n) torch::randn({n})
// CHECK: #define SCALED_NOISE(n) torch::randn({n}) * 2

torch::Tensor run() {
  auto a = MAKE_NOISE(3);
  // CHECK: auto a = MAKE_NOISE(3).to(device);
  // NOTE: macro-value.cpp:[[@LINE-2]]:12: note: tensor created on the CPU by a macro; the macro is kept as written {{.*}} [tensor-factory]
  auto b = SCALED_NOISE(3);
  // CHECK: auto b = (SCALED_NOISE(3)).to(device);
  auto c = ZEROS + a;
  // CHECK: auto c = ZEROS.to(device) + a;
  return a + b + c;
}
