// A helper handed a struct of the program (`const View &view`) makes its
// tensors where the struct's tensor member is (`view.pose.device()`), as it
// would for a tensor parameter: a dataset (host data) and a model's forward
// (device data) both call it. That holds through LibTorch calls that give
// several tensors (`meshgrid`, `chunk`: a vector of them) as through those
// that give one.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct View {
  int width;
  int height;
  torch::Tensor pose;
};

torch::Tensor rays(const View &view) {
  auto origin = torch::zeros({view.height, view.width, 4});
  // CHECK: auto origin = torch::zeros({view.height, view.width, 4}, torch::device(view.pose.device()));
  const auto grid = torch::meshgrid({torch::arange(view.height), torch::arange(view.width)}, "ij");
  // CHECK: const auto grid = torch::meshgrid({torch::arange(view.height, torch::device(view.pose.device())), torch::arange(view.width, torch::device(view.pose.device()))}, "ij");
  auto halves = torch::chunk(torch::ones({2, view.width}), 2);
  // CHECK: auto halves = torch::chunk(torch::ones({2, view.width}, torch::device(view.pose.device())), 2);
  auto d = torch::stack({grid[0], grid[1], halves[0].expand({view.height, view.width})}, 2);
  origin = torch::matmul(view.pose, origin.unsqueeze(-1)).squeeze(-1);
  d = torch::matmul(view.pose.slice(1, 0, 3).unsqueeze(0), d.to(torch::kFloat).unsqueeze(-1));
  return origin.sum() + d.sum();
}

struct Dataset : torch::data::datasets::Dataset<Dataset> {
  torch::data::Example<> get(size_t i) override {
    View view{2, 3, torch::eye(4) * static_cast<float>(i + 1)};
    return {rays(view).reshape({1}), torch::zeros({1})};
  }
  torch::optional<size_t> size() const override { return 2; }
};

int main() {
  torch::nn::Linear net(1, 1);
  Dataset data;
  for (size_t i = 0; i < 2; ++i) {
    auto example = data.get(i);
    View view{2, 3, torch::eye(4)};
    auto y = net(example.data) + rays(view);
    std::cout << y.sum().item<float>() << "\n";
  }
  return 0;
}
