// Negative: what the program places itself is not moved again: functions of
// this file (migrated with it), calls given tensors or modules (their result
// follows them), a module's forward, LibTorch's own functions, results asked
// a host question (`.size(0)`), and results moved already.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: not grep received-tensor %t.err
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

torch::Tensor load_image(const std::string &path);
torch::Tensor normalize(const torch::Tensor &x);
torch::Tensor project(torch::nn::Linear &layer, int64_t n);
torch::Tensor make_input() { return torch::ones({1, 2}); }

struct Net : torch::nn::Module {
  torch::Tensor forward(torch::Tensor x) { return x * 2; }
  torch::Tensor weights() const;
};

int64_t run(torch::nn::Linear &layer, Net &net, torch::Device device) {
  auto x = make_input();
  // CHECK: auto x = make_input();
  auto y = normalize(x);
  // CHECK: auto y = normalize(x);
  auto z = project(layer, 2);
  // CHECK: auto z = project(layer, 2);
  auto w = net.weights();
  // CHECK: auto w = net.weights();
  auto f = net.forward(x);
  // CHECK: auto f = net.forward(x);
  int64_t rows = load_image("a.png").size(0);
  // CHECK: int64_t rows = load_image("a.png").size(0);
  auto moved = load_image("b.png").to(device);
  // CHECK: auto moved = load_image("b.png").to(device);
  auto cat = torch::cat({x, y});
  // CHECK: auto cat = torch::cat({x, y});
  return rows + moved.numel() + cat.numel() + z.numel() + w.numel() + f.numel();
}
