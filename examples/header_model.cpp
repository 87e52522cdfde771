// A training loop whose model and data helper live in a header the project owns
// (header_model/model.h): both files need migrating, the header with
// --header-filter (examples/CMakeLists.txt passes HEADER_FILTER).
#include <torch/torch.h>

#include <cstdio>

#include "header_model/model.h"

int main() {
  torch::manual_seed(0);
  Regressor model(3);
  torch::optim::SGD optimizer(model->parameters(), /*lr=*/0.1);
  for (int step = 0; step < 40; ++step) {
    auto [x, y] = make_batch(16);
    optimizer.zero_grad();
    torch::Tensor loss = torch::mse_loss(model->forward(x), y);
    loss.backward();
    optimizer.step();
    if (step % 10 == 9)
      std::printf("step %d: loss %.6f\n", step + 1, loss.item<float>());
  }
  torch::Tensor w = model->fc->weight;
  std::printf("weights %.4f %.4f %.4f\n", w[0][0].item<float>(), w[0][1].item<float>(),
              w[0][2].item<float>());
}
