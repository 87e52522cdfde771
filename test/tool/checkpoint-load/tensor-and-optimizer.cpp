// A tensor filled by torch::load is moved after the load; the state of a known
// optimizer loaded from a checkpoint is moved tensor by tensor (optimizers have
// no to()); an optimizer type the tool does not know is reported.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

int main(int argc, char **argv) {
  torch::Tensor weights;
  torch::load(weights, argv[1]);
  // CHECK: torch::load(weights, argv[1]);
  // CHECK-NEXT: weights = weights.to(device);
  torch::nn::Linear fc(2, 2);
  torch::optim::SGD sgd(fc->parameters(), 0.1);
  torch::load(sgd, "sgd.pt");
  // CHECK:      torch::load(sgd, "sgd.pt");
  // CHECK-NEXT: for (auto &entry : sgd.state()) { // loaded on the CPU: moved (added by to-device-migrate)
  // CHECK-NEXT:   auto &state = static_cast<torch::optim::SGDParamState &>(*entry.second);
  // CHECK-NEXT:   for (torch::Tensor *t : {&state.momentum_buffer()})
  // CHECK-NEXT:     if (t->defined())
  // CHECK-NEXT:       *t = t->to(device);
  // CHECK-NEXT: }
  torch::optim::Adam adam(fc->parameters());
  torch::load(adam, "adam.pt");
  // CHECK: for (torch::Tensor *t : {&state.exp_avg(), &state.exp_avg_sq(), &state.max_exp_avg_sq()})
  torch::optim::LBFGS lbfgs(fc->parameters());
  torch::load(lbfgs, "lbfgs.pt");
  // WARN: tensor-and-optimizer.cpp:[[@LINE-1]]:3: warning: optimizer state loaded from a checkpoint stays on the CPU {{.*}} [checkpoint-load]
  return argc > 99 ? static_cast<int>(weights.numel()) : 0;
}
