// Examples of a batch stacked by hand and handed to the join through an
// explicit list type (`torch::stack(torch::TensorList(imgs))`, each example
// taken by value) are gathered rows like any others: the stacked batch is
// moved, once (a ResNet trainer's loader without a Stack transform; its
// batches were left on the host and met the model's weights on the device).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <iostream>

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({2}, static_cast<double>(i)), torch::full({1}, 0.5 * i)};
  }
  torch::optional<size_t> size() const override { return 8; }
};

int main() {
  auto loader = torch::data::make_data_loader(Points(), 4);
  torch::nn::Linear model(2, 1);
  float total = 0;
  for (auto &batch : *loader) {
    std::vector<torch::Tensor> data, targets;
    for (torch::data::Example<> example : batch) {
      data.push_back(example.data);
      targets.push_back(example.target.unsqueeze(0));
    }
    // CHECK:      for (torch::data::Example<> example : batch) {
    // CHECK-NEXT:   data.push_back(example.data);
    // CHECK-NEXT:   targets.push_back(example.target.unsqueeze(0));
    // CHECK-NEXT: }
    auto inputs = torch::stack(torch::TensorList(data));
    auto labels = torch::cat(at::ArrayRef<torch::Tensor>(targets));
    // CHECK:      auto inputs = torch::stack(torch::TensorList(data)).to(device);
    // CHECK-NEXT: auto labels = torch::cat(at::ArrayRef<torch::Tensor>(targets)).to(device);
    total += torch::mse_loss(model(inputs), labels).item<float>();
  }
  std::cout << total << "\n";
  return 0;
}
