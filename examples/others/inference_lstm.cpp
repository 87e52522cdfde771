// Programs by others, class 9 (#12): an Embedding + LSTM (hidden size 128)
// language model trained with Adam, then evaluated under torch::InferenceMode.
// Runs on a GPU; on the simulator it must run too, and print what the CPU
// prints to the last digit.
#include <torch/torch.h>

#include <cstdio>

struct LanguageModel : torch::nn::Module {
  LanguageModel()
      : embed(register_module("embed", torch::nn::Embedding(40, 16))),
        lstm(register_module(
            "lstm", torch::nn::LSTM(torch::nn::LSTMOptions(16, 128).batch_first(true)))),
        decode(register_module("decode", torch::nn::Linear(128, 40))) {}
  torch::Tensor forward(torch::Tensor ids) {
    auto out = std::get<0>(lstm(embed(ids)));
    return decode(out.reshape({-1, 128}));
  }
  torch::nn::Embedding embed;
  torch::nn::LSTM lstm;
  torch::nn::Linear decode;
};

int main() {
  torch::manual_seed(10);
  auto model = std::make_shared<LanguageModel>();
  torch::optim::Adam optimizer(model->parameters(), 0.002);
  auto ids = torch::randint(0, 40, {6, 17});
  double total = 0;
  for (int step = 0; step < 10; ++step) {
    auto inputs = ids.narrow(1, 0, 16), targets = ids.narrow(1, 1, 16).reshape(-1);
    auto loss = torch::cross_entropy_loss(model->forward(inputs), targets);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    total += loss.item<double>();
  }
  std::printf("training loss sum %.10f\n", total);
  torch::InferenceMode guard;
  auto logits = model->forward(ids.narrow(1, 0, 16));
  std::printf("inference logit sum %.10f argmax %ld\n", logits.sum().item<double>(),
              logits.argmax().item<int64_t>());
}
