#pragma once
#include <torch/torch.h>

class Agent {
public:
  Agent();
  // Explores with probability epsilon: the network sees the state only otherwise.
  int64_t act(torch::Tensor state, double epsilon);
  // Every call hands it a computed tensor: not host data.
  torch::Tensor value(const torch::Tensor &state);

private:
  torch::nn::Linear net{nullptr};
};
