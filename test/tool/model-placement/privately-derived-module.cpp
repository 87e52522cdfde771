// A module whose class derives from torch::nn::Module privately (`class
// ViewImpl : torch::nn::Module`, a class's default) hides Module::to() from
// code outside it: a move would not compile, and refusing the whole file
// would leave the rest unmigrated. It is reported where it is made and left
// as it is; the modules beside it are moved as usual.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

class ViewImpl : torch::nn::Module {
public:
  explicit ViewImpl(std::vector<int64_t> shape) : shape_(std::move(shape)) {}
  torch::Tensor forward(const torch::Tensor &x) { return x.view(shape_); }

private:
  std::vector<int64_t> shape_;
};
TORCH_MODULE(View);

int main() {
  View view(std::vector<int64_t>{2, 2});
  // CHECK: View view(std::vector<int64_t>{2, 2});
  // CHECK-NOT: view->to(
  // WARN: privately-derived-module.cpp:[[@LINE-3]]:8: warning: 'ViewImpl' derives from torch::nn::Module privately: code outside it cannot call to(), so it is not moved
  torch::nn::Linear linear(4, 4);
  // CHECK: linear->to(device);
  auto y = linear(torch::ones({1, 4}));
  std::cout << view(y).sum().item<float>() << "\n";
  return 0;
}
