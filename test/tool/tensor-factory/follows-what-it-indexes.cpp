// A constructor given tensors makes its permutation where they are: the
// permutation indexes them (`observations.index({indices[i]})`, as
// `observations[idx]` would), and LibTorch needs an index where the tensor
// it indexes is. Whoever makes the generator (here nothing needs its
// tensors anywhere in particular) may keep them on the host or on the
// device; the constructor follows either. A tensor that only lends its
// shape (`x.view_as(y)`) places nothing.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct MiniBatch {
  torch::Tensor observations;
  torch::Tensor targets;
};

class Generator {
public:
  Generator(int mini_batch_size, torch::Tensor observations, torch::Tensor targets)
      : observations(observations), targets(targets) {
    indices = torch::randperm(observations.size(0), torch::TensorOptions(torch::kLong)).view({-1, mini_batch_size});
    // CHECK: indices = torch::randperm(observations.size(0), torch::TensorOptions(torch::kLong).device({{observations|targets}}.device()))
  }
  bool done() const { return index >= indices.size(0); }
  MiniBatch next() {
    MiniBatch batch;
    batch.observations = observations.index({indices[index]});
    batch.targets = targets.index({indices[index]});
    ++index;
    return batch;
  }

private:
  torch::Tensor observations, targets, indices;
  int64_t index = 0;
};

torch::Tensor shaped(const torch::Tensor &x) {
  auto noise = torch::randn({4, 2});
  // CHECK: auto noise = torch::randn({4, 2}, torch::device(device));
  return x.view_as(noise);
}

int main() {
  torch::manual_seed(0);
  Generator generator(4, torch::randn({8, 4}), torch::randn({8, 2}));
  double total = 0;
  while (!generator.done()) {
    MiniBatch batch = generator.next();
    total += (batch.observations.sum() - batch.targets.sum()).item<double>();
  }
  std::cout << total << " " << shaped(torch::ones({8})).sum().item<float>() << "\n";
  return 0;
}
