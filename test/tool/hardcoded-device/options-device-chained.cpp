// A hard-coded CUDA device type in chained options, `.device(torch::kCUDA)`,
// becomes the device variable (it is forwarded to a template, so no Device
// conversion shows where it is written).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto options = torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA);
  // CHECK: auto options = torch::TensorOptions().dtype(torch::kLong).device(device);
  auto labels = torch::zeros({4}, torch::TensorOptions().device(torch::kCUDA).dtype(torch::kLong));
  // CHECK: auto labels = torch::zeros({4}, torch::TensorOptions().device(device).dtype(torch::kLong));
  return torch::ones({4}, options) + labels;
}
