#pragma once
#include <torch/torch.h>
#include <string>
#include <vector>

struct DarknetImpl : torch::nn::Module {
  DarknetImpl();
  torch::Tensor forward(torch::Tensor x);
  void load_weights(const std::vector<float> &buffer);
  std::string net_info() const;
  torch::nn::Sequential layers{nullptr};
  int64_t inputs = 4;
};
TORCH_MODULE(Darknet);
