// --distributed: initialisation first in main(), loaders given a shard per
// rank, rank 0's parameters broadcast where the model is moved, gradients
// averaged before each step, checkpoints saved by rank 0 only; the device is
// the process's own (todevice::distributed::device()).
// RUN: %migrate --distributed %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate --distributed %t.cpp | diff %t.cpp -
#include <torch/torch.h>

// CHECK: #include <todevice/distributed.h>
// CHECK: const torch::Device device(todevice::distributed::device());

struct Squares : torch::data::datasets::Dataset<Squares> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({1}, static_cast<double>(i)), torch::full({1}, static_cast<double>(i * i))};
  }
  torch::optional<size_t> size() const override { return 16; }
};

int main() {
  // CHECK: int main() {
  // CHECK-NEXT: todevice::distributed::init(); // RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT
  auto model = std::make_shared<torch::nn::LinearImpl>(1, 1);
  // CHECK: model->to(device);
  // CHECK-NEXT: todevice::distributed::broadcast_parameters(*model);
  torch::nn::MSELoss loss_fn;
  // CHECK: loss_fn->to(device);
  // CHECK-NOT: broadcast_parameters(*loss_fn)
  torch::optim::SGD optimizer(model->parameters(), 0.01);
  auto shuffled = torch::data::make_data_loader(Squares().map(torch::data::transforms::Stack<>()), 4);
  // CHECK: auto shuffled = torch::data::make_data_loader<todevice::distributed::RandomSampler>(Squares().map(torch::data::transforms::Stack<>()), 4);
  auto ordered = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Squares().map(torch::data::transforms::Stack<>()), 4);
  // CHECK: auto ordered = torch::data::make_data_loader<todevice::distributed::SequentialSampler>(
  auto explicit_sampler = torch::data::make_data_loader(
      Squares().map(torch::data::transforms::Stack<>()), torch::data::samplers::SequentialSampler(16), 4);
  // CHECK: Squares().map(torch::data::transforms::Stack<>()), todevice::distributed::SequentialSampler(16), 4);
  for (int epoch = 0; epoch < 2; ++epoch) {
    for (auto &batch : *shuffled) {
      optimizer.zero_grad();
      loss_fn(model->forward(batch.data), batch.target).backward();
      optimizer.step();
      // CHECK: todevice::distributed::average_gradients(optimizer);
      // CHECK-NEXT: optimizer.step();
    }
  }
  torch::save(model, "model.pt");
  // CHECK: if (todevice::distributed::is_main()) torch::save(model, "model.pt");
  return ordered && explicit_sampler ? 0 : 1;
}
