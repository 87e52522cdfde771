// A program its authors wrote for CUDA, with a placement bug they never saw:
// the loss's class weights are made on the CPU. On a machine without a GPU it
// runs (everything is on the CPU); on a GPU it stops at the loss.
// docs/simulator.md, "Check your GPU program": with its device choice made
// portable (to-device-migrate --rules=hardcoded-device
// --device-expr='todevice::default_device()') and todevice_sim linked,
// TODEVICE=sim finds the bug without a GPU and names this file's line. The
// full migration (every rule) places the weights and runs.
#include <torch/torch.h>

#include <iostream>

struct Classifier : torch::nn::Module {
  Classifier()
      : hidden(register_module("hidden", torch::nn::Linear(8, 16))),
        out(register_module("out", torch::nn::Linear(16, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return out(torch::relu(hidden(x))); }
  torch::nn::Linear hidden, out;
};

int main() {
  torch::manual_seed(0);
  torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto model = std::make_shared<Classifier>();
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  torch::Tensor inputs = torch::randn({32, 8}).to(device);
  torch::Tensor targets = torch::randint(0, 3, {32}, torch::TensorOptions(torch::kLong)).to(device);
  torch::Tensor class_weights = torch::tensor({1.0f, 2.0f, 0.5f}); // the bug: left on the CPU
  for (int epoch = 0; epoch < 5; ++epoch) {
    optimizer.zero_grad();
    torch::Tensor scores = torch::log_softmax(model->forward(inputs), 1);
    torch::Tensor loss = torch::nll_loss(scores, targets, class_weights); // the simulator stops here
    loss.backward();
    optimizer.step();
    std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
