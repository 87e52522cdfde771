// A tensor whose slices are assigned tensors LibTorch computes (sinusoidal
// positions: `table.slice(...) = torch::sin(position * scale)`) is not written
// by host code: the values are computed where their operands are. It is built
// on the device with them, and used there (index_select with device indices).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor positions(int64_t length, int64_t width) {
  torch::Tensor table = torch::zeros({length, width});
  // CHECK: torch::Tensor table = torch::zeros({length, width}, torch::device(device));
  torch::Tensor position = torch::arange(0, length, torch::kFloat).unsqueeze(1);
  torch::Tensor scale = torch::exp(torch::arange(0, width, 2, torch::kFloat) * -0.5);
  table.slice(1, 0, width, 2) = torch::sin(position * scale);
  table.slice(1, 1, width, 2).fill_(torch::cos(position * scale));
  return table;
}

int main() {
  torch::Tensor where = torch::arange(4, torch::kLong);
  // CHECK: torch::Tensor where = torch::arange(4, torch::TensorOptions(torch::kLong).device(device));
  torch::Tensor rows = positions(8, 4).index_select(0, where);
  return rows.size(0) == 4 ? 0 : 1;
}
