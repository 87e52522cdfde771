// A header the project owns: --header-filter='/include/' selects it.
#pragma once
#include <torch/torch.h>

inline torch::Tensor make_batch(int64_t rows) {
  return torch::randn({rows, 4});
}

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 2))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x) + torch::ones({2}); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);
