// A global model is moved at the start of main().
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::nn::Linear global_fc(4, 4);

int main() {
  // CHECK: int main() {
  // CHECK-NEXT: global_fc->to(device);
  return static_cast<int>(global_fc->weight.numel()) - 16;
}
