// A rollout buffer host code writes through accessors it keeps as members
// stays on the host. Batches whose rows are copied from it
// (`batch.observations[k] = observations_data[i]`: an assignment to a view
// from a tensor is a copy_, which takes its source from any device) are
// built on the host too, and moved where the policy takes them: once per
// batch, not once per row.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

struct Batch {
  torch::Tensor observations, returns;
};

class RolloutBuffer {
public:
  explicit RolloutBuffer(int64_t size)
      : size(size), observations_data(torch::zeros({size, 3})), returns_data(torch::zeros({size})),
        observations(observations_data.accessor<float, 2>()), returns(returns_data.accessor<float, 1>()) {}
  // CHECK: : size(size), observations_data(torch::zeros({size, 3})), returns_data(torch::zeros({size})),

  void add(int64_t i, const float *observation, float value) {
    for (int j = 0; j < 3; ++j)
      observations[i][j] = observation[j];
    returns[i] = value;
  }

  std::vector<Batch> samples(int64_t batch_size) {
    std::vector<Batch> batches;
    for (int64_t start = 0; start < size; start += batch_size) {
      Batch batch;
      batch.observations = torch::empty({batch_size, 3});
      // CHECK: batch.observations = torch::empty({batch_size, 3});
      batch.returns = torch::empty({batch_size});
      // CHECK: batch.returns = torch::empty({batch_size});
      for (int64_t k = 0; k < batch_size; ++k) {
        batch.observations[k] = observations_data[start + k];
        batch.returns[k] = returns_data[start + k];
      }
      batches.push_back(batch);
    }
    return batches;
  }

private:
  int64_t size;
  torch::Tensor observations_data, returns_data;
  torch::TensorAccessor<float, 2> observations;
  torch::TensorAccessor<float, 1> returns;
};

int main() {
  torch::manual_seed(0);
  torch::nn::Linear critic(3, 1);
  torch::optim::SGD optimizer(critic->parameters(), 0.1);
  RolloutBuffer buffer(8);
  for (int64_t i = 0; i < 8; ++i) {
    const float observation[3] = {1.0f * i, 2.0f, 3.0f};
    buffer.add(i, observation, 0.5f * i);
  }
  for (const Batch &batch : buffer.samples(4)) {
    auto loss = (critic(batch.observations).flatten() - batch.returns).pow(2).mean();
    // CHECK: auto loss = (critic(batch.observations.to(device)).flatten() - batch.returns.to(device)).pow(2).mean();
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  std::cout << critic->weight.sum().item<float>() << "\n";
  return 0;
}
