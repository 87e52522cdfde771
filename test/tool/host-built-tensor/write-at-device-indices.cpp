// An in-place write is judged by its operands, not by its value alone: a
// one-hot target written at indices the model computed
// (`target.index_put_({picked}, 1)`) is written where those indices are, on
// the device, so the target is made there. Indices from host values
// (`torch::tensor(ids)`, `from_blob` over the program's vector) and written
// scalars (`mask[0] = 1`) can be taken to the device with the write: the mask
// is made there too, and never copied where the model takes it (a mask built
// in a `forward` would otherwise cross at every call).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s --implicit-check-not="mask.to(" --implicit-check-not="flags.to("
// RUN: %syntax-check %t.cpp
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
  // CHECK: auto mask = torch::zeros({3}, torch::device(device));
  mask.index_put_({torch::from_blob(ids.data(), {2}, torch::kLong)}, 1);
  // CHECK: mask.index_put_({torch::from_blob(ids.data(), {2}, torch::kLong).to(device)}, 1);
  auto flags = torch::zeros({3});
  // CHECK: auto flags = torch::zeros({3}, torch::device(device));
  flags.index_put_({torch::tensor(ids)}, 1);
  // CHECK: flags.index_put_({torch::tensor(ids, torch::device(device))}, 1);
  flags[0] = 1;
  auto loss = (policy(torch::randn({2, 4}) * mask * flags) - target).pow(2).sum();
  return loss.item<float>() >= 0 ? 0 : 1;
}
