// A host read in a function template (`t.data_ptr<T>()`, dependent on the
// template's parameter) is resolved in each instantiation and brought to the
// host once, in the template.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <vector>

template <class T> std::vector<T> tensor_to_vector(torch::Tensor t) {
  return std::vector<T>(t.data_ptr<T>(), t.data_ptr<T>() + t.numel());
}
// CHECK:      auto t_host = t.cpu();
// CHECK-NEXT: return std::vector<T>(t_host.data_ptr<T>(), t_host.data_ptr<T>() + t.numel());

int main() {
  torch::nn::Linear policy(2, 2);
  auto scores = policy(torch::ones({1, 2}));
  std::vector<float> values = tensor_to_vector<float>(scores.detach());
  std::vector<int64_t> labels = tensor_to_vector<int64_t>(scores.argmax(1));
  return values.size() == 2 && labels.size() == 1 ? 0 : 1;
}
