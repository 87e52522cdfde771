// Negative: a from_blob already followed by .to(<device>) is left alone; a
// dtype conversion is not a move, so that one is still moved.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make(torch::Device device) {
  float raw[4] = {1, 2, 3, 4};
  auto a = torch::from_blob(raw, {4}).to(device);
  // CHECK: auto a = torch::from_blob(raw, {4}).to(device);
  auto b = torch::from_blob(raw, {4}).to(torch::kDouble);
  // CHECK: auto b = torch::from_blob(raw, {4}).to(device).to(torch::kDouble);
  return a.sum() + b.sum();
}
