// `// to-device: keep-cpu` on a line (or `keep-cpu-next-line` on the line
// before) leaves that site on the CPU; other sites are still migrated.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  auto host = torch::zeros({4}); // to-device: keep-cpu
  // CHECK: auto host = torch::zeros({4}); // to-device: keep-cpu
  // to-device: keep-cpu-next-line
  torch::nn::Linear cpu_model(2, 2);
  // CHECK: torch::nn::Linear cpu_model(2, 2);
  // CHECK-NEXT: auto moved = torch::ones({4}, torch::device(device));
  auto moved = torch::ones({4});
  float raw[2] = {1, 2};
  auto blob = torch::from_blob(raw, {2}); // to-device: keep-cpu
  // CHECK: auto blob = torch::from_blob(raw, {2}); // to-device: keep-cpu
  return static_cast<int>(host.sum().item<float>() + moved.sum().item<float>() +
                          blob.sum().item<float>() + cpu_model->weight.numel()) * 0;
}
