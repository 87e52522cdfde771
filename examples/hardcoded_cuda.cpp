// Written for a GPU machine: CUDA is named directly wherever a GPU is found.
// The migration makes every such placement use the one portable device, so the
// same code runs with or without a GPU (hardcoded-device).
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(2);
  torch::nn::Linear model(3, 1);
  auto x = torch::randn({8, 3});
  auto y = x.sum(1, /*keepdim=*/true);
  if (torch::cuda::is_available()) {
    model->to(torch::kCUDA);
    x = x.cuda();
    y = y.to(torch::kCUDA);
  }
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < 20; ++step) {
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model(x), y);
    loss.backward();
    optimizer.step();
    if (step % 5 == 0)
      std::cout << "step " << step << " loss " << loss.item<float>() << "\n";
  }
  return 0;
}
