// Tensors filled element by element on the host — word indices from a
// vocabulary, an embedding table filled row by row from host vectors — are
// built on the CPU and moved once, where the model uses them, not written one
// element at a time on the device; the rows written into them stay on the
// host too. A few floats wrapped to be read back on the host (`argmax` then
// `item`) are not moved at all.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <map>
#include <string>
#include <vector>

int main() {
  std::map<std::string, int64_t> vocab{{"a", 0}, {"b", 1}};
  std::vector<std::string> words{"b", "a", "b"};
  auto indices = torch::zeros({3}, torch::kLong);
  for (size_t i = 0; i < words.size(); ++i)
    indices[i] = vocab[words[i]];
  // CHECK: auto indices = torch::zeros({3}, torch::kLong);
  std::vector<std::vector<float>> glove{{0.5f, 1.0f}, {2.0f, 4.0f}};
  auto table = torch::zeros({2, 2});
  for (int64_t i = 0; i < 2; ++i)
    table[i] = torch::from_blob(glove[i].data(), {2});
  // CHECK:      auto table = torch::zeros({2, 2});
  // CHECK:      table[i] = torch::from_blob(glove[i].data(), {2});
  torch::nn::Embedding embedding(2, 2);
  embedding->weight.set_data(table.clone());
  // CHECK: embedding->weight.set_data(table.to(device).clone());
  auto vectors = embedding(indices);
  // CHECK: auto vectors = embedding(indices.to(device));
  float scores[3] = {0.1f, 0.7f, 0.2f};
  int best = torch::from_blob(scores, {3}).argmax().item<int>();
  // CHECK: int best = torch::from_blob(scores, {3}).argmax().item<int>();
  return vectors.size(0) == 3 && best == 1 ? 0 : 1;
}
