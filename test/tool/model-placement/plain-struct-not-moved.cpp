// Negative: a member that is empty when the object is created is not moved
// there (it is moved where the program assigns it), a const object is
// reported, references are not owners, and a plain struct without modules is
// left alone.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

struct Lazy {
  torch::nn::Linear proj{nullptr};
};

struct Holder {
  torch::nn::Linear proj{2, 2};
};

struct Options {
  int epochs = 1;
  double lr = 0.1;
};

int use(Holder &ref) { return static_cast<int>(ref.proj->weight.size(0)); }

int main() {
  Lazy lazy;
  // CHECK:      Lazy lazy;
  // CHECK-NEXT: lazy.proj = torch::nn::Linear(2, 2);
  // CHECK-NEXT: lazy.proj->to(device);
  lazy.proj = torch::nn::Linear(2, 2);
  const Holder fixed;
  // WARN: plain-struct-not-moved.cpp:[[@LINE-1]]:16: warning: 'fixed' holds modules but is const{{.*}} [model-placement]
  Options options;
  Holder h;
  Holder &ref = h;
  // CHECK: Holder h;
  // CHECK-NEXT: h.proj->to(device);
  // CHECK-NOT: fixed.proj->to(
  // CHECK-NOT: ref.proj->to(
  // CHECK-NOT: options.to(
  return use(ref) + options.epochs + static_cast<int>(fixed.proj->weight.size(0)) - 5;
}
