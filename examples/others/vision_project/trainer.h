#pragma once
#include <torch/torch.h>

// A trainer generic over its model: the model is built in Initialize(),
// its stem restored from a checkpoint, and its output layer replaced there.
template <typename Model> class Trainer {
public:
  void Initialize(int64_t classes, const std::string &checkpoint) {
    model = Model(classes);
    torch::load(model->stem, checkpoint);
    model->out = model->replace_module("out", torch::nn::Linear(8, classes));
    optimizer = std::make_unique<torch::optim::SGD>(model->all_parameters(),
                                                    torch::optim::SGDOptions(0.05));
  }

  float step(torch::Tensor images, torch::Tensor labels) {
    optimizer->zero_grad();
    torch::Tensor loss = torch::cross_entropy_loss(model(images), labels);
    loss.backward();
    optimizer->step();
    return loss.item<float>();
  }

private:
  Model model{nullptr};
  std::unique_ptr<torch::optim::SGD> optimizer;
};
