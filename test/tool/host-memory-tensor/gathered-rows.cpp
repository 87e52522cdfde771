// Rows copied from host data one by one into a vector and then joined stay on
// the CPU; the joined batch is moved, one copy instead of one per row. A
// vector that also holds other tensors, or is handed on, keeps the rows placed:
// where the tensor it holds is (`state.device()`, a parameter), or on the device.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <vector>

using Rows = std::vector<std::vector<int64_t>>;

torch::Tensor batchOf(const Rows &rows, std::vector<float> &pixels) {
  std::vector<torch::Tensor> tokens, images;
  tokens.reserve(rows.size());
  for (const auto &row : rows) {
    tokens.push_back(torch::tensor(row, torch::kLong));
    // CHECK: tokens.push_back(torch::tensor(row, torch::kLong));
    images.push_back(torch::from_blob(pixels.data(), {2, 2}).clone().unsqueeze(0));
    // CHECK: images.push_back(torch::from_blob(pixels.data(), {2, 2}).clone().unsqueeze(0));
  }
  auto batch = torch::stack(tokens);
  // CHECK: auto batch = torch::stack(tokens).to(device);
  auto image = torch::cat(images);
  // CHECK: auto image = torch::cat(images).to(device);
  return batch.to(torch::kFloat).sum() + image.sum();
}

torch::Tensor mixed(const Rows &rows, const torch::Tensor &state) {
  std::vector<torch::Tensor> parts{state};
  for (const auto &row : rows)
    parts.push_back(torch::tensor(row, torch::kFloat));
  // CHECK: parts.push_back(torch::tensor(row, torch::TensorOptions(torch::kFloat).device(state.device())));
  return torch::cat(parts);
  // CHECK: return torch::cat(parts);
}

std::vector<torch::Tensor> handedOn(const Rows &rows) {
  std::vector<torch::Tensor> out;
  for (const auto &row : rows)
    out.push_back(torch::tensor(row));
  // CHECK: out.push_back(torch::tensor(row, torch::device(device)));
  auto all = torch::stack(out);
  return out;
}

int main() {
  Rows rows{{1, 2}, {3, 4}};
  std::vector<float> pixels{1, 2, 3, 4};
  auto state = torch::zeros({2});
  std::cout << batchOf(rows, pixels) << mixed(rows, state) << handedOn(rows).size() << "\n";
}
