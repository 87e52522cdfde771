// Options the program keeps (a static member behind a getter, a class member,
// a global) are followed to the values the program gives them: those naming no
// device get it where the factory uses them; those naming one stay. Options
// copied from a tensor (`x.options()`) follow that tensor and stay as written.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
// RUN: %migrate %s 2>&1 > /dev/null | FileCheck --allow-empty --check-prefix=QUIET %s
// QUIET-NOT: note:
#include <torch/torch.h>

class Controller {
public:
  static void configure() { options = options.dtype(torch::kFloat32).requires_grad(false); }
  static const torch::TensorOptions &getOptions() { return options; }

private:
  static torch::TensorOptions options;
};
torch::TensorOptions Controller::options = torch::TensorOptions();

struct Buffers {
  torch::TensorOptions opts_{torch::kFloat32};
  torch::TensorOptions cpu_ = torch::TensorOptions().device(torch::kCPU);
  torch::Tensor make() const {
    auto a = torch::zeros({2}, opts_);
    // CHECK: auto a = torch::zeros({2}, opts_.device(device));
    auto b = torch::zeros({2}, cpu_);
    // CHECK: auto b = torch::zeros({2}, cpu_);
    return a + b.to(a.device());
  }
};

const torch::TensorOptions kLongs = torch::dtype(torch::kLong);
const torch::TensorOptions &optionsFromAnotherFile(); // its body is not in sight

torch::Tensor step(const torch::Tensor &x) {
  auto state = torch::zeros({1, 4}, Controller::getOptions());
  // CHECK: auto state = torch::zeros({1, 4}, Controller::getOptions().device(device));
  auto index = torch::arange(4, kLongs);
  // CHECK: auto index = torch::arange(4, kLongs.device(device));
  auto like = torch::ones({4}, x.options());
  // CHECK: auto like = torch::ones({4}, x.options());
  auto other = torch::zeros({4}, optionsFromAnotherFile());
  // CHECK: auto other = torch::zeros({4}, optionsFromAnotherFile().device(device));
  return state.index_select(1, index) + like + other;
}

int main() {
  Controller::configure();
  auto x = torch::randn({4});
  std::cout << step(x) + Buffers().make().sum() << "\n";
}
