// Factories inside lambdas (with and without captures), range-for with
// structured bindings, and auto/decltype declarations.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <map>
#include <string>

int main() {
  auto make = [](int64_t n) { return torch::ones({n}); };
  // CHECK: auto make = [](int64_t n) { return torch::ones({n}, torch::device(device)); };
  int64_t size = 3;
  auto make_sized = [&] { return torch::rand({size}); };
  // CHECK: auto make_sized = [&] { return torch::rand({size}, torch::device(device)); };
  std::map<std::string, torch::Tensor> named{{"a", make(2)}, {"b", make_sized()}};
  for (auto &[name, tensor] : named)
    tensor = tensor + torch::zeros_like(tensor);
  decltype(make(1)) copy = torch::empty({1});
  // CHECK: decltype(make(1)) copy = torch::empty({1}, torch::device(device));
  auto [first, second] = std::make_pair(torch::eye(2), copy);
  // CHECK: auto [first, second] = std::make_pair(torch::eye(2, torch::device(device)), copy);
  return static_cast<int>(first.numel() + second.numel() + named.size()) - 7;
}
