// (a) A CPU-only training loop: a model, a loss, an optimizer, and tensors made
// by factories. `to-device-migrate train.cpp` places all of it on the device.
#include <torch/torch.h>

#include <cstdio>

struct Net : torch::nn::Module {
  Net() {
    fc1 = register_module("fc1", torch::nn::Linear(8, 16));
    fc2 = register_module("fc2", torch::nn::Linear(16, 3));
  }
  torch::Tensor forward(torch::Tensor x) { return fc2->forward(torch::relu(fc1->forward(x))); }
  torch::nn::Linear fc1{nullptr}, fc2{nullptr};
};

int main() {
  torch::manual_seed(42);
  auto net = std::make_shared<Net>();
  torch::nn::CrossEntropyLoss loss_f(
      torch::nn::CrossEntropyLossOptions().weight(torch::tensor({1.0f, 2.0f, 0.5f})));
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9));

  auto inputs = torch::randn({64, 8});
  auto labels = torch::randint(0, 3, {64}, torch::kLong);
  for (int epoch = 0; epoch < 20; ++epoch) {
    optimizer.zero_grad();
    auto loss = loss_f(net->forward(inputs), labels);
    loss.backward();
    optimizer.step();
    if (epoch % 5 == 4)
      std::printf("epoch %d loss %.6f\n", epoch + 1, loss.item<float>());
  }
  auto predictions = net->forward(inputs).argmax(1);
  auto accuracy = (predictions == labels).to(torch::kFloat).mean();
  std::printf("accuracy %.4f\n", accuracy.item<float>());
}
