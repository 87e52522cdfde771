// Programs by others, class 7 (#12): modules held as members of a plain
// (non-module) struct, a "trainer" that owns its model, head and loss. They
// must be moved where the struct's object is created.
#include <torch/torch.h>

#include <cstdio>

struct Encoder : torch::nn::Module {
  Encoder() : fc(register_module("fc", torch::nn::Linear(5, 8))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::tanh(fc(x)); }
  torch::nn::Linear fc;
};

struct Heads {
  torch::nn::Linear proj{8, 2};
  torch::nn::CrossEntropyLoss loss{
      torch::nn::CrossEntropyLossOptions().weight(torch::tensor({1.0f, 3.0f}))};
};

struct Trainer {
  std::shared_ptr<Encoder> encoder = std::make_shared<Encoder>();
  Heads heads;
  double lr = 0.1;
};

int main() {
  torch::manual_seed(7);
  Trainer trainer;
  auto x = torch::randn({16, 5});
  auto y = (x.sum(1) > 0).to(torch::kLong);
  std::vector<torch::Tensor> parameters = trainer.encoder->parameters();
  for (auto &p : trainer.heads.proj->parameters())
    parameters.push_back(p);
  torch::optim::SGD optimizer(parameters, trainer.lr);
  for (int step = 0; step < 6; ++step) {
    optimizer.zero_grad();
    auto logits = trainer.heads.proj(trainer.encoder->forward(x));
    auto loss = trainer.heads.loss(logits, y);
    loss.backward();
    optimizer.step();
    std::printf("step %d loss %.6f\n", step, loss.item<double>());
  }
}
