// Negative: without --distributed nothing distributed is written.
// RUN: %migrate %s > %t.cpp
// RUN: not grep "todevice[:][:]distributed" %t.cpp
#include <torch/torch.h>

int main() {
  torch::nn::Linear model(1, 1);
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  optimizer.step();
  torch::save(model, "model.pt");
}
