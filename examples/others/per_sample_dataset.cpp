// Programs by others, class 2 and 4 (#12): a dataset builds every example with
// factories in get() (and a helper only get() calls), the way many custom
// datasets do. That code must stay on the CPU: the loader stacks the samples
// and the loop moves one batch per step, so the migrated program makes at most
// two host->device copies per step (data and target), not one per sample. The
// test checks the simulator's transfer count. Options built in place
// (`torch::TensorOptions(torch::kFloat)`) must get the device too.
#include <torch/torch.h>

#include <cstdio>

torch::Tensor jitter(int64_t n) { return torch::rand({n}) * 0.1; }

struct Noisy : torch::data::datasets::Dataset<Noisy> {
  torch::data::Example<> get(size_t index) override {
    auto i = static_cast<double>(index);
    auto x = torch::full({4}, i / 10.0) + jitter(4);
    auto y = torch::tensor({i / 5.0});
    return {x, y};
  }
  torch::optional<size_t> size() const override { return 40; }
};

int main() {
  torch::manual_seed(4);
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Noisy().map(torch::data::transforms::Stack<>()), 8);
  torch::nn::Linear model(4, 1);
  torch::optim::Adam optimizer(model->parameters(), 0.05);
  auto offset = torch::randint(0, 10, {1, 1}, torch::TensorOptions(torch::kFloat)) / 100.0;
  for (int epoch = 0; epoch < 4; ++epoch) {
    double total = 0;
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model(batch.data) + offset, batch.target);
      loss.backward();
      optimizer.step();
      total += loss.item<double>();
    }
    std::printf("epoch %d loss %.6f\n", epoch, total);
  }
}
