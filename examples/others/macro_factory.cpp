// Programs by others, class 8 (#12): tensors made by the program's own macros.
// The macros stay as written; their values are moved where they are used.
#include <torch/torch.h>

#include <cstdio>

#define MAKE_NOISE(n) torch::randn({n, 4})
#define CENTERED(n) torch::rand({n, 1}) - 0.5
#define EPSILON torch::full({1}, 1e-3)

int main() {
  torch::manual_seed(9);
  torch::nn::Linear model(4, 1);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  for (int step = 0; step < 5; ++step) {
    auto x = MAKE_NOISE(8);
    auto y = CENTERED(8);
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model(x), y) + EPSILON.sum();
    loss.backward();
    optimizer.step();
    std::printf("step %d loss %.6f\n", step, loss.item<double>());
  }
}
