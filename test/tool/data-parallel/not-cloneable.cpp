// --data-parallel: a module that is not cloneable cannot be replicated, so its
// forward calls are left as they are and a note says what to change.
// RUN: %migrate --data-parallel %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>
// CHECK-NOT: data_parallel

struct Net : torch::nn::Module {
  Net() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};

int main() {
  auto net = std::make_shared<Net>();
  auto x = torch::ones({8, 4});
  for (int step = 0; step < 2; ++step) {
    auto out = net->forward(x);
    // CHECK: auto out = net->forward(x);
    // NOTE: not-cloneable.cpp:[[@LINE-2]]:16: note: 'net' is not run with data_parallel: it replicates a module with clone(), which 'Net' does not implement; derive it from torch::nn::Cloneable<Net> and define reset() to use several GPUs [data-parallel]
    out.sum().backward();
  }
  return 0;
}
