// A tensor over host memory assigned to a `torch::Tensor &` parameter (a
// loader's `load_tokens(path, train_data_)`) is the caller's tensor: it
// leaves the function, so it does not "stay on the host" because nothing in
// its own function takes it to the device. Here the member it fills is
// sliced and stacked into batches a model takes: it is moved where it is made.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

class Tokens {
public:
  explicit Tokens(int64_t n) { load(n, data_); }
  torch::Tensor batch(int64_t rows, int64_t width) const {
    std::vector<torch::Tensor> picked;
    for (int64_t i = 0; i < rows; ++i)
      picked.push_back(data_.slice(0, i, i + width));
    return torch::stack(picked);
  }

private:
  static void load(int64_t n, torch::Tensor &out) {
    std::vector<int16_t> raw(n);
    for (int64_t i = 0; i < n; ++i)
      raw[i] = static_cast<int16_t>(i % 7);
    out = torch::from_blob(raw.data(), {n}, torch::kInt16).to(torch::kLong).clone();
    // CHECK: out = torch::from_blob(raw.data(), {n}, torch::kInt16).to(device).to(torch::kLong).clone();
  }
  torch::Tensor data_;
};

int main() {
  Tokens tokens(32);
  torch::nn::Embedding embed(7, 3);
  std::cout << embed(tokens.batch(2, 4)).sum().item<double>() << "\n";
}
