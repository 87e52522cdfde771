// A model restored from a checkpoint is moved after torch::load: loading puts
// CPU tensors into its parameters.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main(int argc, char **argv) {
  torch::nn::Linear restored(3, 1);
  if (argc > 5)
    return 1;
  torch::load(restored, "weights.pt");
  // CHECK: torch::nn::Linear restored(3, 1);
  // CHECK-NEXT: if (argc > 5)
  // CHECK-NEXT: return 1;
  // CHECK-NEXT: torch::load(restored, "weights.pt");
  // CHECK-NEXT: restored->to(device);
  return 0;
}
