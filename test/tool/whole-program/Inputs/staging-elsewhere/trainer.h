#pragma once
#include <torch/torch.h>

// The staging tensors are filled in trainer.cpp and used in main.cpp.
class Trainer {
public:
  Trainer();
  void fill(int step);
  torch::Tensor inputs, labels;
};
