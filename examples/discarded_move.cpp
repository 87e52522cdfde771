// A classic slip: `t.to(device);` as a statement moves nothing (the moved copy
// is thrown away). Harmless on the CPU, wrong on a GPU; the migration assigns
// the result back (discarded-move).
#include <torch/torch.h>

#include <iostream>

void prepare(torch::Tensor &features, torch::Device device) {
  features.to(device);
  features = features / features.norm();
}

int main() {
  torch::manual_seed(3);
  const torch::Device cpu(torch::kCPU);
  auto features = torch::randn({5, 2});
  prepare(features, cpu);
  auto scores = torch::randn({2});
  scores.to(cpu);
  std::cout << "scores " << torch::matmul(features, scores).sum().item<float>() << "\n";
  return 0;
}
