// A statement that ends in a braced initialiser (`model = MaxUnpool1d{...};`,
// LibTorch's own modules test) ends at its `;`, not at the `}`: the move goes
// after the `;`.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

using namespace torch::nn;

int main() {
  MaxUnpool1d model{MaxUnpool1dOptions(3)};
  auto x = torch::ones({1, 1, 3});
  auto indices = torch::tensor({{{1, 3, 4}}}, torch::kLong);
  model = MaxUnpool1d{MaxUnpool1dOptions(3).stride(2).padding(1)};
  // CHECK:      model = MaxUnpool1d{MaxUnpool1dOptions(3).stride(2).padding(1)};
  // CHECK-NEXT: model->to(device);
  auto y = model->forward(x, indices);
  return y.dim() == 3 ? 0 : 1;
}
