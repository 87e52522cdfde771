// An in-place write is judged by its operands, not by its value alone: a
// one-hot target written at indices the model computed
// (`target.index_put_({picked}, 1)`) is written where those indices are, on
// the device, so the target is made there. Written at the host's indices
// (`mask.index_put_({torch::tensor(ids)}, 1)`, `mask[0] = 1`), it is built on
// the host and moved where the model takes it.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

int main() {
  torch::nn::Linear policy(4, 3);
  auto logits = policy(torch::randn({2, 4}));
  auto picked = logits.argmax(1);
  auto target = torch::zeros({2, 3});
  // CHECK: auto target = torch::zeros({2, 3}, torch::device(device));
  target.index_put_({torch::arange(2, torch::kLong), picked}, 1);
  std::vector<int64_t> ids{1, 2};
  auto mask = torch::zeros({3});
  // CHECK: auto mask = torch::zeros({3});
  mask.index_put_({torch::tensor(ids)}, 1);
  mask[0] = 1;
  auto loss = (policy(torch::randn({2, 4}) * mask) - target).pow(2).sum();
  // CHECK: auto loss = (policy(torch::randn({2, 4}, torch::device(device)) * mask.to(device)) - target).pow(2).sum();
  return loss.item<float>() >= 0 ? 0 : 1;
}
