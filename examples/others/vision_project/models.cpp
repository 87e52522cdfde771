#include "models.h"

ClassifierImpl::ClassifierImpl(int64_t classes) {
  stem = register_module("stem", torch::nn::Linear(36, 8));
  for (int i = 0; i < 2; ++i)
    blocks.push_back(torch::nn::AnyModule(torch::nn::Linear(8, 8)));
  head = std::make_unique<torch::nn::LinearImpl>(8, 8);
  out = register_module("out", torch::nn::Linear(8, classes));
}

torch::Tensor ClassifierImpl::forward(torch::Tensor x) {
  x = torch::relu(stem(x));
  for (auto &block : blocks)
    x = torch::relu(block.forward(x));
  return out(torch::relu(head->forward(x)));
}

std::vector<torch::Tensor> ClassifierImpl::all_parameters() {
  std::vector<torch::Tensor> all = parameters();
  for (auto &block : blocks)
    for (auto &p : block.ptr()->parameters())
      all.push_back(p);
  for (auto &p : head->parameters())
    all.push_back(p);
  return all;
}
