// A tensor member loaded with torch::load in one of its class's functions (a
// data set's constructor reading its tensors, r9_heatpinn) is moved right
// after the load, as a local is.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <string>

struct Samples {
  Samples() = default;
  explicit Samples(const std::string &dir) {
    torch::load(inputs, dir + "/inputs.pt");
    // CHECK: torch::load(inputs, dir + "/inputs.pt");
    // CHECK-NEXT: inputs = inputs.to(device);
    torch::load(this->targets, dir + "/targets.pt");
    // CHECK: torch::load(this->targets, dir + "/targets.pt");
    // CHECK-NEXT: this->targets = this->targets.to(device);
  }
  torch::Tensor inputs, targets;
};

int main(int argc, char **argv) {
  torch::nn::Linear net(2, 1);
  Samples data(argv[1]);
  auto loss = torch::mse_loss(net(data.inputs), data.targets);
  return loss.item<float>() > 0 ? 0 : 1;
}
