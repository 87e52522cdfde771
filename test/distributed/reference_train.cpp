// examples/distributed_train.cpp's training on W ranks, done in one process:
// the global batch of step k is the union of every rank's k-th local batch
// (DistributedSequentialSampler gives rank r the samples [r*N/W, (r+1)*N/W)),
// and its loss is the mean over it, which is what averaging each rank's
// gradient of its own mean loss computes. Prints the parameters as the example
// does. Usage: reference_train W
#include "distributed_data.h"

#include <cstdio>
#include <string>

int main(int argc, char **argv) {
  const int64_t world = argc > 1 ? std::stoll(argv[1]) : 1;
  torch::manual_seed(0);
  auto model = std::make_shared<Net>();
  torch::optim::SGD optimizer(model->parameters(), 0.05);
  Points points;
  const int64_t shard = kSamples / world;
  for (int epoch = 0; epoch < kEpochs; ++epoch) {
    for (int64_t step = 0; step < shard / kBatchSize; ++step) {
      std::vector<torch::data::Example<>> examples;
      for (int64_t rank = 0; rank < world; ++rank)
        for (int64_t j = 0; j < kBatchSize; ++j)
          examples.push_back(points.get(static_cast<size_t>(rank * shard + step * kBatchSize + j)));
      auto batch = torch::data::transforms::Stack<>().apply_batch(examples);
      optimizer.zero_grad();
      torch::mse_loss(model->forward(batch.data), batch.target.narrow(1, 0, 1)).backward();
      optimizer.step();
    }
  }
  print_parameters(*model);
}
