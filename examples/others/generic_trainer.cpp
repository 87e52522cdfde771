// Programs by others, #23 class 3: a trainer generic over its model and data
// (a class template), holding the model, the optimizer and the data loader as
// members and constructed in main(). The model is built by the template's
// constructor, so that is where it is moved: whether `model` holds a module is
// read from the instantiation main() makes.
#include <torch/torch.h>

#include <cstdio>

struct RegressorImpl : torch::nn::Module {
  explicit RegressorImpl(int64_t features)
      : hidden(register_module("hidden", torch::nn::Linear(features, 16))),
        out(register_module("out", torch::nn::Linear(16, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return out(torch::relu(hidden(x))); }
  torch::nn::Linear hidden, out;
};
TORCH_MODULE(Regressor);

// y = sum of the features, with a little noise made from the index.
class SumDataset : public torch::data::datasets::Dataset<SumDataset> {
public:
  explicit SumDataset(int64_t features) : features(features) {}
  torch::data::Example<> get(size_t index) override {
    torch::Tensor x = torch::arange(features, torch::kFloat).mul(0.1).add(static_cast<double>(index % 7) / 7);
    return {x, x.sum().unsqueeze(0) + 0.01 * static_cast<double>(index % 3)};
  }
  torch::optional<size_t> size() const override { return 64; }

private:
  int64_t features;
};

template <typename Model, typename Dataset>
class Trainer {
public:
  using Loader = torch::data::StatelessDataLoader<
      torch::data::datasets::MapDataset<Dataset, torch::data::transforms::Stack<>>,
      torch::data::samplers::SequentialSampler>;

  Trainer(Model built, Dataset dataset, double lr)
      : model(std::move(built)), optimizer(model->parameters(), torch::optim::SGDOptions(lr)),
        loader(torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
            std::move(dataset).map(torch::data::transforms::Stack<>()), 8)) {}

  double epoch() {
    double total = 0;
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      torch::Tensor loss = torch::mse_loss(model->forward(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      total += loss.template item<double>();
    }
    return total;
  }

private:
  Model model;
  torch::optim::SGD optimizer;
  std::unique_ptr<Loader> loader;
};

int main() {
  torch::manual_seed(5);
  Trainer<Regressor, SumDataset> trainer(Regressor(4), SumDataset(4), 0.01);
  for (int epoch = 0; epoch < 4; ++epoch)
    std::printf("epoch %d loss %.6f\n", epoch, trainer.epoch());
}
