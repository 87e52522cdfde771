// A sample taken from a data set by hand, in an evaluation loop
// (`auto sample = dataset.get(i);`), is built on the CPU like every sample:
// the tensors of it that device code uses are moved right after it; a label
// only read on the host (`item()`) stays.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Pairs : torch::data::datasets::Dataset<Pairs> {
  torch::data::Example<> get(size_t i) override {
    return {torch::full({2}, static_cast<double>(i)), torch::full({1}, 1.0)};
  }
  torch::optional<size_t> size() const override { return 4; }
};

int main() {
  Pairs data;
  torch::nn::Linear model(2, 1);
  float correct = 0;
  for (size_t i = 0; i < 4; ++i) {
    auto sample = data.get(i);
    // CHECK:      auto sample = data.get(i);
    // CHECK-NEXT: sample.data = sample.data.to(device);
    // CHECK-NOT:  sample.target =
    float score = model(sample.data).item<float>();
    correct += score > sample.target.item<float>() ? 1 : 0;
  }
  return correct >= 0 ? 0 : 1;
}
