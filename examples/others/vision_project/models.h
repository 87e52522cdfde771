#pragma once
#include <torch/torch.h>

// A classifier whose stem and output layer are registered, but whose layer
// list and head are not: its own Module::to() reaches only the first two.
struct ClassifierImpl : torch::nn::Module {
  explicit ClassifierImpl(int64_t classes);
  torch::Tensor forward(torch::Tensor x);
  std::vector<torch::Tensor> all_parameters();

  torch::nn::Linear stem{nullptr};
  std::vector<torch::nn::AnyModule> blocks;
  std::unique_ptr<torch::nn::LinearImpl> head;
  torch::nn::Linear out{nullptr};
};
TORCH_MODULE(Classifier);


struct Probe : torch::nn::Module {
  Probe() : fc(register_module("fc", torch::nn::Linear(2, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
