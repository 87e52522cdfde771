// A CPU program that "makes sure" its model is on the CPU before using it
// (`model->to(torch::kCPU)`) is already where it is: that line is part of
// the model's set-up, and the move to the device comes after it, not before
// (before, the pin would take the model back to the CPU while its inputs go
// to the device). The pin itself is kept, with a note.
// RUN: %migrate --no-compile-check %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(4, 2);
  model->to(torch::kCPU);
  auto out = model(torch::randn({3, 4}));
  // CHECK: torch::nn::Linear model(4, 2);
  // CHECK-NEXT: model->to(torch::kCPU);
  // CHECK-NEXT: model->to(device);
  // CHECK-NEXT: auto out = model(torch::randn({3, 4}, torch::device(device)));
  // NOTE: after-pin-to-cpu.cpp:[[@LINE-6]]:{{[0-9]+}}: note: explicit CPU placement kept
  std::cout << out.sum().item<float>() << "\n";
  // A pin after the model's first use is a use like any other: the move
  // stays before the first use.
  torch::nn::Linear later(4, 2);
  auto first = later(torch::randn({1, 4}));
  later->to(torch::kCPU);
  // CHECK: torch::nn::Linear later(4, 2);
  // CHECK-NEXT: later->to(device);
  // CHECK-NEXT: auto first = later(torch::randn({1, 4}, torch::device(device)));
  std::cout << first.sum().item<float>() << "\n";
  return 0;
}
