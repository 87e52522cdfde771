// A helper called from per-sample code and from the training code is not
// per-sample code: its factories are placed (a dataset that calls it gets
// device samples, which the loader stacks on the device).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

torch::Tensor noise(int64_t n) { return torch::randn({n}); }
// CHECK: torch::Tensor noise(int64_t n) { return torch::randn({n}, torch::device(device)); }

struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t i) override { return {noise(3), torch::zeros({1})}; }
  // CHECK: torch::data::Example<> get(size_t i) override { return {noise(3), torch::zeros({1})}; }
  torch::optional<size_t> size() const override { return 8; }
};

int main() {
  auto x = noise(3);
  return x.numel() == 3 && Points().get(0).target.numel() == 1 ? 0 : 1;
}
