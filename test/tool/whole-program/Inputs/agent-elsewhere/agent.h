#pragma once
#include <torch/torch.h>

// An agent whose constructor (agent.cpp) builds its networks; a checkpoint
// loader (weights.cpp) that loads into the model it is handed.
struct Agent {
  Agent();
  torch::Tensor act(torch::Tensor state) { return policy(state); }
  torch::nn::Linear policy{nullptr};
  torch::nn::Linear critic{nullptr};
};

void load_weights(torch::nn::Linear &model, const std::string &path);
