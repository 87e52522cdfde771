// Tensors over host memory are copied to the device with .to(device); giving
// from_blob a device would claim the pointer is device memory.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <vector>

torch::Tensor make(std::vector<float> &values) {
  float raw[6] = {1, 2, 3, 4, 5, 6};
  auto a = torch::from_blob(raw, {2, 3});
  // CHECK: auto a = torch::from_blob(raw, {2, 3}).to(device);
  auto b = torch::from_blob(values.data(), {static_cast<int64_t>(values.size())}).clone();
  // CHECK: auto b = torch::from_blob(values.data(), {static_cast<int64_t>(values.size())}).to(device).clone();
  auto c = torch::from_blob(raw, {6}, torch::kFloat);
  // CHECK: auto c = torch::from_blob(raw, {6}, torch::kFloat).to(device);
  return a.sum() + b.sum() + c.sum();
}
