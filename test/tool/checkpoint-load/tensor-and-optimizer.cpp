// A tensor filled by torch::load is moved after the load; optimizer state
// loaded from a checkpoint is reported (optimizers have no to()).
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
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
  // WARN: tensor-and-optimizer.cpp:[[@LINE-1]]:3: warning: optimizer state loaded from a checkpoint stays on the CPU {{.*}} [checkpoint-load]
  return argc > 99 ? static_cast<int>(weights.numel()) : 0;
}
