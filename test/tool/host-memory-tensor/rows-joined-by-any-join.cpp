// Rows gathered from host data are moved once where they are joined, whichever
// of LibTorch's joins takes them (the table's Join row: `concat`, `vstack`,
// `column_stack` as well as `stack` and `cat`).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <vector>

int main() {
  std::vector<std::vector<int64_t>> rows{{1, 2}, {3, 4}, {5, 6}};
  std::vector<torch::Tensor> segments, lengths;
  for (auto &row : rows) {
    segments.push_back(torch::from_blob(row.data(), {1, 2}, torch::kLong).clone());
    lengths.push_back(torch::tensor({static_cast<int64_t>(row.size())}));
  }
  auto all_segments = torch::concat(segments, 0);
  // CHECK: auto all_segments = torch::concat(segments, 0).to(device);
  auto all_lengths = torch::vstack(lengths);
  // CHECK: auto all_lengths = torch::vstack(lengths).to(device);
  torch::nn::Embedding embed(8, 3);
  auto out = embed(all_segments).sum() + embed(all_lengths).sum();
  return out.item<float>() > 0 ? 0 : 1;
}
