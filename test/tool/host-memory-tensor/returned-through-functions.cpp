// A copy of host data that its function only returns is not "only used on
// the host": callers hand it on, through more returns and a tuple, to the
// model. It is moved where it is made, once (an environment's observation:
// vectorToTensor -> observe -> step).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <tuple>
#include <vector>

torch::Tensor vectorToTensor(std::vector<float> values) {
  torch::Tensor tensor = torch::from_blob(values.data(), {1, 4}).clone();
  // CHECK: torch::Tensor tensor = torch::from_blob(values.data(), {1, 4}).to(device).clone();
  return tensor;
}

torch::Tensor observe(int step) {
  torch::Tensor observation = vectorToTensor({1.0f * step, 2.0f, 3.0f, 4.0f});
  return observation.unsqueeze(0);
}

std::tuple<torch::Tensor, bool> step(int i) { return {observe(i), i == 2}; }

int main() {
  torch::nn::Linear policy(4, 2);
  float total = 0;
  for (int i = 0; i < 3; ++i)
    total += policy(std::get<0>(step(i))).sum().item<float>();
  float scores[3] = {0.1f, 0.7f, 0.2f};
  int best = torch::from_blob(scores, {3}).argmax().item<int>();
  // CHECK: int best = torch::from_blob(scores, {3}).argmax().item<int>();
  return best == 1 && total != 0 ? 0 : 1;
}
