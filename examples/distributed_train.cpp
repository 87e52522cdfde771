// A single-process regression trainer, CPU-only, as users write it. Migrated
// with `to-device-migrate --distributed`, it trains data-parallel across
// processes (test/distributed checks it on 1, 2 and 4 ranks against the same
// training in one process).
#include "distributed_data.h"

#include <cstdio>
#include <string>

int main() {
  torch::manual_seed(0);
  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), 0.05);
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      Points().map(torch::data::transforms::Stack<>()), kBatchSize);
  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    double total = 0;
    std::string seen;
    for (auto &batch : *loader) {
      auto target = batch.target.narrow(1, 0, 1);
      auto ids = batch.target.narrow(1, 1, 1).reshape(-1);
      optimizer.zero_grad();
      auto loss = torch::mse_loss(model->forward(batch.data), target);
      loss.backward();
      optimizer.step();
      total += loss.item<double>();
      for (int64_t i = 0; i < ids.size(0); ++i)
        seen += " " + std::to_string(ids[i].item<int64_t>());
    }
    std::printf("epoch %d loss %.6f samples%s\n", epoch, total, seen.c_str());
  }
  print_parameters(*model);
  torch::save(model, "model.pt");
}
