// A site written as a macro's argument is rewritten where it is written (the
// macro's body is not touched): a test macro wrapping a factory call, a
// hard-coded .cuda() passed to a logging macro. Only sites a macro's body
// writes are reported instead (tricky/macro-sites.cpp).
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN --allow-empty %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#define EXPECT_POSITIVE(value) if (!((value) > 0)) return 1
#define KEEP(x) (x)
// CHECK: #define EXPECT_POSITIVE(value) if (!((value) > 0)) return 1
// CHECK: #define KEEP(x) (x)

int main() {
  EXPECT_POSITIVE(torch::ones({3}).sum().item<float>());
  // CHECK: EXPECT_POSITIVE(torch::ones({3}, torch::device(device)).sum().item<float>());
  auto y = KEEP(torch::randn({2}).cuda());
  // CHECK: auto y = KEEP(torch::randn({2}, torch::device(device)).to(device));
  return y.numel() == 2 ? 0 : 1;
}
// WARN-NOT: macro expansion
