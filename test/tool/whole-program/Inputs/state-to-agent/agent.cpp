#include "agent.h"

#include <cstdlib>

Agent::Agent() : net(torch::nn::Linear(4, 2)) {}

int64_t Agent::act(torch::Tensor state, double epsilon) {
  if (std::rand() / static_cast<double>(RAND_MAX) < epsilon)
    return std::rand() % 2;
  torch::NoGradGuard no_grad;
  auto input = state.unsqueeze(0);
  return net->forward(input).argmax(1).item<int64_t>();
}

torch::Tensor Agent::value(const torch::Tensor &state) { return net->forward(state).sum(); }
