#include "trainer.h"

#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear model(3, 1);
  Trainer trainer;
  for (int step = 0; step < 3; ++step) {
    trainer.fill(step);
    torch::Tensor loss = torch::mse_loss(model->forward(trainer.inputs), trainer.labels);
    std::printf("%.5f\n", loss.item<float>());
  }
  return 0;
}
