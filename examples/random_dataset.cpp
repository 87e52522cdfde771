// (b) The "random dataset" program of the DataParallel tutorial: a dataset of
// randn rows, a Linear(5, 2) model, batches of 30, printing input/output sizes.
#include <torch/torch.h>

#include <iostream>

struct RandomDataset : torch::data::datasets::Dataset<RandomDataset> {
  RandomDataset(int64_t size, int64_t length) : data(torch::randn({length, size})) {}
  torch::data::Example<> get(size_t index) override {
    return {data[static_cast<int64_t>(index)], torch::zeros({1})};
  }
  torch::optional<size_t> size() const override { return data.size(0); }
  torch::Tensor data;
};

int main() {
  torch::manual_seed(0);
  const int64_t input_size = 5, output_size = 2, batch_size = 30, data_size = 100;
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      RandomDataset(input_size, data_size).map(torch::data::transforms::Stack<>()), batch_size);
  torch::nn::Linear model(input_size, output_size);

  double checksum = 0;
  for (auto &batch : *loader) {
    auto output = model(batch.data);
    std::cout << "In Model: input size " << batch.data.sizes() << " output size "
              << output.sizes() << "\n";
    checksum += output.sum().item<double>();
  }
  std::printf("checksum %.6f\n", checksum);
}
