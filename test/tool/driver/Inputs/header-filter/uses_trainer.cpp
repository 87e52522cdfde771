#include <torch/torch.h>

#include "trainer.hpp"

int main() {
  torch::nn::Linear fc(1, 1);
  Trainer<torch::nn::Linear> trainer;
  torch::Tensor x = torch::ones({1});
  return trainer.fit(fc, x) > 100;
}
