// A hard-coded CUDA device type in chained options, `.device(torch::kCUDA)`,
// becomes the device variable (it is forwarded to a template, so no Device
// conversion shows where it is written); one given with an index is reported
// (found by the corpus run in tensor_options.cpp).
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor make() {
  auto options = torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA);
  // CHECK: auto options = torch::TensorOptions().dtype(torch::kLong).device(device);
  auto labels = torch::zeros({4}, torch::TensorOptions().device(torch::kCUDA).dtype(torch::kLong));
  // CHECK: auto labels = torch::zeros({4}, torch::TensorOptions().device(device).dtype(torch::kLong));
  auto second = torch::TensorOptions().device(torch::kCUDA, 1);
  // CHECK: auto second = torch::TensorOptions().device(torch::kCUDA, 1);
  // WARN: options-device-chained.cpp:[[@LINE-2]]:47: warning: hard-coded CUDA device with an index; not rewritten {{.*}} [hardcoded-device]
  return torch::ones({4}, options) + labels + torch::zeros({1}, second.device() == options.device() ? options : options);
}
