// A training loop migrated with --data-parallel: on a machine with several
// GPUs each forward pass is split across all of them; with one GPU or none it
// runs as written (data-parallel). LibTorch's modules are cloneable.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(5);
  torch::nn::Sequential model(torch::nn::Linear(4, 8), torch::nn::ReLU(), torch::nn::Linear(8, 1));
  torch::optim::Adam optimizer(model->parameters(), 0.01);
  auto x = torch::randn({32, 4});
  auto y = x.pow(2).sum(1, /*keepdim=*/true);
  for (int epoch = 0; epoch < 30; ++epoch) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    if (epoch % 10 == 0)
      std::cout << "epoch " << epoch << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
