// Fits y = 3x - 1 with a linear model: CPU-only as written, moved to the
// device by to_device_migrate() in CMakeLists.txt.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(0);
  auto x = torch::linspace(-1, 1, 64).unsqueeze(1);
  auto y = 3 * x - 1 + 0.01 * torch::randn({64, 1});
  torch::nn::Linear model(1, 1);
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1));
  for (int step = 0; step < 200; ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model(x), y);
    loss.backward();
    optimizer.step();
    if (step % 50 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  std::cout << "weight " << model->weight.item<float>() << " bias " << model->bias.item<float>()
            << "\n";
  return 0;
}
