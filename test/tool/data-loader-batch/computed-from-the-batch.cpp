// A batch of a custom item type that the program stacks in a function of its
// own (`std::vector<torch::Tensor> parts = collate(batch);`) gives the loop
// tensors computed from the batch without a model: each is moved where it is
// made, when device code uses it. A number taken from the batch, a model's
// output and a tensor only read on the host are not moved.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <vector>

struct Item {
  torch::Tensor image, label;
};

struct Items : torch::data::datasets::Dataset<Items, Item> {
  Item get(size_t i) override {
    return {torch::full({3}, static_cast<float>(i)), torch::full({1}, 0.5f * i)};
  }
  torch::optional<size_t> size() const override { return 8; }
};

std::vector<torch::Tensor> collate(std::vector<Item> &batch) {
  std::vector<torch::Tensor> images, labels;
  for (Item &item : batch) {
    images.push_back(item.image);
    labels.push_back(item.label);
  }
  return {torch::stack(images), torch::stack(labels)};
}

int main() {
  auto loader = torch::data::make_data_loader(Items(), 4);
  torch::nn::Linear model(3, 1);
  float total = 0;
  for (std::vector<Item> &batch : *loader) {
    std::vector<torch::Tensor> parts = collate(batch);
    torch::Tensor inputs = parts.at(0);
    torch::Tensor targets = parts.at(1);
    // CHECK:      torch::Tensor inputs = parts.at(0).to(device);
    // CHECK-NEXT: torch::Tensor targets = parts.at(1).to(device);
    const int64_t n = batch.size();
    torch::Tensor weights = torch::ones({n, 1});
    // CHECK: torch::Tensor weights = torch::ones({n, 1}, torch::device(device));
    torch::Tensor output = model->forward(inputs);
    // CHECK: torch::Tensor output = model->forward(inputs);
    torch::Tensor first = parts.at(1)[0];
    // CHECK: torch::Tensor first = parts.at(1)[0];
    total += (torch::mse_loss(output, targets) * weights).sum().item<float>() + first.item<float>();
  }
  std::cout << total << "\n";
}
