// Programs by others, class 5 (#12): tensors come from code the tool does not
// see (received_tensor_source.cpp, another team's library, built from
// std::vectors), then flow into device computation: a language-model corpus
// and an "image" optimised in place, neural-style. They must be moved where
// they are received, and the image before the optimizer is built over it.
#include "received_tensor_source.h"

#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(6);
  Corpus corpus(12);
  torch::nn::Embedding embed(12, 6);
  torch::nn::Linear decode(6, 12);
  std::vector<torch::Tensor> parameters = embed->parameters();
  for (auto &p : decode->parameters())
    parameters.push_back(p);
  torch::optim::SGD optimizer(parameters, 0.5);
  auto ids = corpus.get_data(4);
  for (int step = 0; step < 5; ++step) {
    auto inputs = ids.narrow(1, 0, ids.size(1) - 1), targets = ids.narrow(1, 1, ids.size(1) - 1);
    auto logits = decode(embed(inputs)).reshape({-1, 12});
    auto loss = torch::cross_entropy_loss(logits, targets.reshape(-1));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::printf("lm step %d loss %.6f\n", step, loss.item<double>());
  }

  torch::Tensor content = load_image(5);
  torch::Tensor style = load_image(7);
  torch::Tensor target = content.clone();
  torch::optim::Adam image_optimizer({target.requires_grad_(true)}, 0.05);
  for (int step = 0; step < 5; ++step) {
    auto loss = torch::mse_loss(target, content) + 0.5 * torch::mse_loss(target.mean(0), style.mean(0));
    image_optimizer.zero_grad();
    loss.backward();
    image_optimizer.step();
    std::printf("style step %d loss %.6f\n", step, loss.item<double>());
  }
}
