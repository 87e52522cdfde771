// Negative: a body that already moves its batch, and loops over other things,
// are left alone.
// RUN: %migrate %s > %t.cpp
// RUN: diff %s %t.cpp
#include <torch/torch.h>
#include <vector>

void train(torch::Device device, std::vector<torch::Tensor> &tensors) {
  auto loader = torch::data::make_data_loader(
      torch::data::datasets::TensorDataset({torch::ones({4, 2}, torch::device(device))}), 2);
  for (auto &batch : *loader) {
    for (auto &example : batch) {
      auto x = example.data.to(device);
      (void)x;
    }
  }
  for (auto &t : tensors)
    t.add_(1);
}
