#include "agent.h"

void load_weights(torch::nn::Linear &model, const std::string &path) {
  if (!path.empty())
    torch::load(model, path);
}
