// Programs by others, class 6 (#12): written for a GPU machine, with CUDA
// named in chained options (`.device(torch::kCUDA)`). As written it aborts
// where there is no GPU; migrated, the options name the one portable device.
#include <torch/torch.h>

#include <cstdio>

int main() {
  torch::manual_seed(8);
  auto long_options = torch::TensorOptions().dtype(torch::kLong).device(torch::kCUDA);
  auto float_options = torch::TensorOptions().device(torch::kCUDA).dtype(torch::kFloat);
  auto labels = torch::tensor({0, 1, 1, 0, 1, 0}, long_options);
  auto inputs = torch::randn({6, 3}, float_options);
  torch::nn::Linear model(3, 2);
  torch::optim::SGD optimizer(model->parameters(), 0.2);
  for (int step = 0; step < 5; ++step) {
    optimizer.zero_grad();
    auto loss = torch::cross_entropy_loss(model(inputs), labels);
    loss.backward();
    optimizer.step();
    std::printf("step %d loss %.6f\n", step, loss.item<double>());
  }
}
