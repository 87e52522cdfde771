// Tensors made in helper functions and returned, passed as parameters, held in
// struct members (with default member initialisers) and in a
// std::vector<torch::Tensor>: every factory gets the device, wherever it is.
#include <torch/torch.h>

#include <iostream>
#include <vector>

torch::Tensor make_inputs(int64_t rows) { return torch::linspace(0, 1, rows * 2).reshape({rows, 2}); }

struct Layer {
  torch::Tensor weight = torch::ones({2, 2});
  torch::Tensor bias = torch::zeros({2});
  torch::Tensor apply(const torch::Tensor &x) const { return torch::matmul(x, weight) + bias; }
};

torch::Tensor mix(const torch::Tensor &a, const torch::Tensor &b) { return a * 0.25 + b * torch::full({1}, 0.75); }

int main() {
  Layer layer;
  std::vector<torch::Tensor> history;
  auto x = make_inputs(3);
  for (int step = 0; step < 3; ++step) {
    x = mix(x, layer.apply(x));
    history.push_back(torch::eye(2) * x.mean());
  }
  auto total = torch::zeros({2, 2});
  for (const auto &h : history)
    total += h;
  std::cout << "total " << total.sum().item<float>() << " last " << x.sum().item<float>() << "\n";
  return 0;
}
