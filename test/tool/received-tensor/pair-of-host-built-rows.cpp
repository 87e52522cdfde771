// A function of the program that fills its tensors one element at a time
// from host values (`x[i][j] = tokens[k]`: a fill, done on the host) and
// returns them in a pair returns host tensors: where a structured binding
// receives the pair and device code takes it, each tensor binding is moved
// there once (rebound), as a hand-placed `xb.to(device)` after get_batch()
// would be. Negative: a pair bound by const reference cannot be rebound, and
// gets a warning at its line instead of silence.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=DIAG %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

std::pair<torch::Tensor, torch::Tensor> get_batch(const std::vector<int64_t> &tokens, int64_t rows,
                                                  int64_t width) {
  auto x = torch::zeros({rows, width}, torch::kLong);
  auto y = torch::zeros({rows, width}, torch::kLong);
  // CHECK: auto x = torch::zeros({rows, width}, torch::kLong);
  // CHECK: auto y = torch::zeros({rows, width}, torch::kLong);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < width; ++j) {
      x[i][j] = tokens[i + j];
      y[i][j] = tokens[i + j + 1];
    }
  return {x, y};
  // CHECK: return {x, y};
}

int main() {
  std::vector<int64_t> tokens(64);
  for (size_t i = 0; i < tokens.size(); ++i)
    tokens[i] = static_cast<int64_t>(i % 10);
  torch::nn::Embedding embed(10, 4);
  double total = 0;
  for (int step = 0; step < 2; ++step) {
    auto [inputs, targets] = get_batch(tokens, 2, 3);
    total += torch::nn::functional::cross_entropy(embed(inputs).view({-1, 4}), targets.view({-1})).item<double>();
  }
  // CHECK:      auto [inputs, targets] = get_batch(tokens, 2, 3);
  // CHECK-NEXT: inputs = inputs.to(device);
  // CHECK-NEXT: targets = targets.to(device);
  // DIAG: pair-of-host-built-rows.cpp:[[@LINE-6]]:30: note: 'get_batch' gives tensors built on the host and device code takes them: moved to the device once, where they are received
  const auto &[held, labels] = get_batch(tokens, 2, 3);
  // DIAG: pair-of-host-built-rows.cpp:[[@LINE-1]]:32: warning: 'get_batch' gives tensors built on the host that device code takes, and the tool can rebind them only where a structured binding holds them by value
  // CHECK: const auto &[held, labels] = get_batch(tokens, 2, 3);
  // CHECK-NOT: held = held.to(
  total += embed(held).sum().item<double>() + labels.sum().item<double>();
  std::cout << total << "\n";
}
