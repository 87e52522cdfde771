// CRLF line endings are kept: every inserted line ends in CRLF too.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); sys.exit(d.count(b'\n') != d.count(b'\r\n'))" %t.cpp
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(2, 2);
  // CHECK: model->to(device);
  auto x = torch::ones({1, 2});
  // CHECK: auto x = torch::ones({1, 2}, torch::device(device));
  return static_cast<int>(model(x).numel()) - 2;
}
