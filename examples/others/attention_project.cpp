// Programs by others, #23 class 5, in the shape of a transformer project over
// several headers: a positional table at namespace scope and a mask helper in
// a header that is not self-contained, used by the model's forward() (the
// table through index_select). Migrated with --header-filter, they are built
// on the device.
#include <torch/torch.h>

#include <cstdio>

#include "attention_project/model.h"

int main() {
  torch::manual_seed(2);
  TinyDecoder model(12, 8);
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(1e-2));
  torch::Tensor tokens = torch::randint(0, 12, {4, 10});
  torch::Tensor next = torch::roll(tokens, -1, 1);
  for (int step = 0; step < 5; ++step) {
    torch::Tensor logits = model->forward(tokens);
    torch::Tensor loss = torch::cross_entropy_loss(logits.reshape({-1, 12}), next.reshape({-1}));
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    std::printf("step %d loss %.6f\n", step, loss.item<double>());
  }
}
