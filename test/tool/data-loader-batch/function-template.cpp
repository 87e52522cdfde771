// A training loop in a function template (the shape of LibTorch's MNIST
// example): the batch's type depends on the loader's, so the loop is rewritten
// from the template's instantiation, once, however often it is instantiated.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({2}, static_cast<double>(i)), torch::full({1}, 1.0)};
  }
  torch::optional<size_t> size() const override { return 6; }
};

template <typename DataLoader>
void train(torch::nn::Linear &model, DataLoader &loader, torch::optim::Optimizer &opt) {
  for (auto &batch : loader) {
    // CHECK: for (auto &batch : loader) {
    // CHECK-NEXT: batch.data = batch.data.to(device);
    // CHECK-NEXT: batch.target = batch.target.to(device);
    // CHECK-NEXT: auto data = batch.data, targets = batch.target;
    auto data = batch.data, targets = batch.target;
    opt.zero_grad();
    torch::mse_loss(model(data), targets).backward();
    opt.step();
  }
}

template <typename DataLoader>
double test(torch::nn::Linear &model, DataLoader &loader) {
  double sum = 0;
  for (const auto &batch : loader) {
    // CHECK: for (const auto &batch : loader) {
    // CHECK-NEXT: auto batch_data = batch.data.to(device);
    // CHECK-NEXT: auto batch_target = batch.target.to(device);
    // CHECK-NEXT: auto output = model(batch_data);
    // CHECK-NEXT: sum += torch::mse_loss(output, batch_target).template item<double>();
    auto output = model(batch.data);
    sum += torch::mse_loss(output, batch.target).template item<double>();
  }
  return sum;
}

int main() {
  torch::nn::Linear model(2, 1);
  torch::optim::SGD opt(model->parameters(), 0.01);
  auto sequential = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Pairs().map(torch::data::transforms::Stack<>()), 3);
  auto random = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      Pairs().map(torch::data::transforms::Stack<>()), 3);
  // Two instantiations of each template: still one move per field.
  train(model, *sequential, opt);
  train(model, *random, opt);
  return test(model, *sequential) + test(model, *random) > 0 ? 0 : 1;
}
