// --device-expr supplies the device expression; todevice:: expressions get the
// runtime's include.
// RUN: %migrate --device-expr='todevice::default_device()' %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate --device-expr='todevice::default_device()' %t.cpp | diff %t.cpp -
#include <torch/torch.h>

// CHECK: #include <todevice/todevice.h>
// CHECK-NEXT: #include <torch/torch.h>
// CHECK-NOT: #include <todevice/todevice.h>
// CHECK: const torch::Device device(todevice::default_device());
int main() {
  auto x = torch::zeros({2});
  // CHECK: auto x = torch::zeros({2}, torch::device(device));
  return 0;
}
