// Programs by others, class 1 and 3 (#12): the shape of LibTorch's MNIST
// example. The training and test loops are function templates over the data
// loader, so each batch's type depends on a template parameter; the model is
// built from a variable (`Net model(kHidden)`), as are a BatchNorm and a
// ConvNet-style holder. Everything must end up on the device.
#include <torch/torch.h>

#include <cstdio>

struct Net : torch::nn::Module {
  explicit Net(int64_t hidden)
      : fc1(register_module("fc1", torch::nn::Linear(8, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, 3))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};

struct HeadImpl : torch::nn::Module {
  explicit HeadImpl(int64_t classes) : fc(register_module("fc", torch::nn::Linear(3, classes))) {}
  torch::Tensor forward(torch::Tensor x) { return torch::log_softmax(fc(x), 1); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Head);

// A fixed synthetic dataset: 96 rows of 8 features, 3 classes.
struct Blobs : torch::data::datasets::Dataset<Blobs> {
  Blobs() : features(torch::randn({96, 8})), labels(torch::randint(0, 3, {96})) {
    features += labels.unsqueeze(1).to(torch::kFloat);
  }
  torch::data::Example<> get(size_t i) override {
    return {features[static_cast<int64_t>(i)], labels[static_cast<int64_t>(i)]};
  }
  torch::optional<size_t> size() const override { return 96; }
  torch::Tensor features, labels;
};

template <typename DataLoader>
void train(size_t epoch, Net &model, torch::nn::BatchNorm1d &norm, Head &head,
           DataLoader &data_loader, torch::optim::Optimizer &optimizer) {
  model.train();
  size_t batch_idx = 0;
  for (auto &batch : data_loader) {
    auto data = batch.data, targets = batch.target;
    optimizer.zero_grad();
    auto output = head(norm(model.forward(data)));
    auto loss = torch::nll_loss(output, targets);
    loss.backward();
    optimizer.step();
    if (batch_idx++ % 2 == 0)
      std::printf("epoch %zu batch %zu loss %.6f\n", epoch, batch_idx, loss.template item<float>());
  }
}

template <typename DataLoader>
void test(Net &model, torch::nn::BatchNorm1d &norm, Head &head, DataLoader &data_loader,
          size_t dataset_size) {
  torch::NoGradGuard no_grad;
  model.eval();
  norm->eval();
  double test_loss = 0;
  int32_t correct = 0;
  for (const auto &batch : data_loader) {
    auto output = head(norm(model.forward(batch.data)));
    test_loss += torch::nll_loss(output, batch.target, {}, torch::Reduction::Sum)
                     .template item<double>();
    auto pred = output.argmax(1);
    correct += pred.eq(batch.target).sum().template item<int64_t>();
  }
  std::printf("test loss %.6f accuracy %d/%zu\n", test_loss / dataset_size, correct, dataset_size);
}

int main() {
  torch::manual_seed(1);
  const int64_t kHidden = 16, kClasses = 3;
  Net model(kHidden);
  torch::nn::BatchNorm1d norm(kClasses);
  Head head(kClasses);
  auto train_loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Blobs().map(torch::data::transforms::Stack<>()), 16);
  auto test_loader = torch::data::make_data_loader(Blobs().map(torch::data::transforms::Stack<>()), 32);
  std::vector<torch::Tensor> parameters = model.parameters();
  for (auto &p : norm->parameters())
    parameters.push_back(p);
  for (auto &p : head->parameters())
    parameters.push_back(p);
  torch::optim::SGD optimizer(parameters, torch::optim::SGDOptions(0.05).momentum(0.5));
  for (size_t epoch = 1; epoch <= 3; ++epoch) {
    train(epoch, model, norm, head, *train_loader, optimizer);
    test(model, norm, head, *test_loader, 96);
  }
}
