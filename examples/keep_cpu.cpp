// Sites marked `// to-device: keep-cpu` stay on the CPU: here a running
// statistics buffer only the host reads, while the model and its data move.
#include <torch/torch.h>

#include <iostream>

int main() {
  torch::manual_seed(6);
  torch::nn::Linear model(2, 2);
  auto x = torch::randn({10, 2});
  auto losses = torch::zeros({5}); // to-device: keep-cpu
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < 5; ++step) {
    optimizer.zero_grad();
    auto loss = model(x).pow(2).mean();
    loss.backward();
    optimizer.step();
    losses[step] = loss.item<float>();
  }
  auto host = losses.accessor<float, 1>();
  std::cout << "first " << host[0] << " last " << host[4] << " mean " << losses.mean().item<float>() << "\n";
  return 0;
}
