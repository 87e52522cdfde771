// The data and the model of distributed_train.cpp, shared with the
// single-process reference of its test (test/distributed/reference_train.cpp).
#pragma once

#include <torch/torch.h>

#include <cmath>
#include <cstdio>

constexpr int64_t kSamples = 64;
constexpr int64_t kBatchSize = 4;
constexpr int kEpochs = 2;

/// 64 points of a smooth function of 3 inputs; each target carries its
/// sample's id in a second column, so the program can say what it trained on.
struct Points : torch::data::datasets::Dataset<Points> {
  torch::data::Example<> get(size_t index) override {
    const double t = static_cast<double>(index);
    const double x0 = std::sin(t), x1 = std::cos(0.5 * t), x2 = t / kSamples;
    auto x = torch::tensor({x0, x1, x2}, torch::kFloat);
    auto y = torch::tensor({3 * x0 - 2 * x1 + 0.5 * x2 + 1, t}, torch::kFloat);
    return {x, y};
  }
  torch::optional<size_t> size() const override { return kSamples; }
};

struct Net : torch::nn::Module {
  Net()
      : hidden(register_module("hidden", torch::nn::Linear(3, 8))),
        out(register_module("out", torch::nn::Linear(8, 1))) {}
  torch::Tensor forward(const torch::Tensor &x) { return out(torch::tanh(hidden(x))); }
  torch::nn::Linear hidden, out;
};

/// Prints each parameter as `name v0 v1 ...` (%.9g): what the test compares
/// between the ranks and the single-process reference.
inline void print_parameters(const torch::nn::Module &model) {
  for (const auto &p : model.named_parameters()) {
    auto values = p.value().reshape(-1);
    std::printf("%s", p.key().c_str());
    for (int64_t i = 0; i < values.size(0); ++i)
      std::printf(" %.9g", values[i].item<double>());
    std::printf("\n");
  }
}
