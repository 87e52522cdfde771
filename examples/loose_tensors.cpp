// (c) Many loose tensors and a scalar hyper-parameter: linear regression fitted
// by hand with autograd, the shape of the "batch-move every variable" tutorial.
#include <torch/torch.h>

#include <cstdio>
#include <vector>

int main() {
  torch::manual_seed(7);
  const double lr = 0.1; // a scalar hyper-parameter
  auto true_w = torch::tensor({2.0f, -3.4f});
  auto true_b = torch::full({1}, 4.2f);
  auto features = torch::randn({200, 2});
  auto noise = torch::normal(0.0, 0.01, {200}, c10::nullopt, torch::kFloat);
  auto targets = torch::matmul(features, true_w) + true_b + noise;

  auto w = torch::zeros({2}, torch::requires_grad());
  auto b = torch::zeros({1}, torch::requires_grad());
  std::vector<float> bias_init = {0.5f};
  auto offset = torch::from_blob(bias_init.data(), {1}).clone();
  auto eye = torch::eye(2);
  auto steps = torch::arange(0, 30);

  for (int64_t step = 0; step < steps.size(0); ++step) {
    auto pred = torch::matmul(features, torch::matmul(eye, w)) + b + offset - 0.5;
    auto loss = (pred - targets).pow(2).mean();
    loss.backward();
    {
      torch::NoGradGuard no_grad;
      w -= lr * w.grad();
      b -= lr * b.grad();
      w.grad().zero_();
      b.grad().zero_();
    }
    if (step % 10 == 9)
      std::printf("step %lld loss %.6f\n", static_cast<long long>(step + 1), loss.item<float>());
  }
  std::printf("w = %.4f %.4f, b = %.4f\n", w[0].item<float>(), w[1].item<float>(),
              b.item<float>());
}
