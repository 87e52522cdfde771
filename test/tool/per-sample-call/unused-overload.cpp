// Helpers only a data set calls (per sample, on the host) stay on the host
// even when an overload of the program that nothing calls also names them:
// code that never runs does not place them. A tensor made in a default
// argument (`window = torch::hann_window(4)`) is made where the function's
// calls are, per sample here.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

torch::Tensor frames(const torch::Tensor &wave, torch::Tensor window = torch::hann_window(4)) {
  return wave.unfold(-1, 4, 2) * window;
}
// CHECK: torch::Tensor frames(const torch::Tensor &wave, torch::Tensor window = torch::hann_window(4)) {

torch::Tensor filters(int64_t n) { return torch::linspace(0, 1, n).unsqueeze(1); }
// CHECK: torch::Tensor filters(int64_t n) { return torch::linspace(0, 1, n).unsqueeze(1); }

torch::Tensor features(const torch::Tensor &wave, int64_t n, double scale) {
  return frames(wave).matmul(filters(n)) * scale;
}
torch::Tensor features(const torch::Tensor &wave) { return frames(wave).matmul(filters(4)); }

struct Audio : torch::data::datasets::Dataset<Audio> {
  torch::data::Example<> get(size_t index) override {
    torch::Tensor wave = torch::tensor(std::vector<float>(16, static_cast<float>(index)));
    return {features(wave).flatten(), torch::ones({1})};
  }
  torch::optional<size_t> size() const override { return 4; }
};

int main() {
  auto loader = torch::data::make_data_loader(Audio().map(torch::data::transforms::Stack<>()), 2);
  torch::nn::Linear head(7, 1);
  float total = 0;
  for (auto &batch : *loader) {
    // CHECK: batch.data = batch.data.to(device);
    total += head(batch.data).sum().item<float>();
  }
  return total == total ? 0 : 1;
}
