// Factory calls without options get the device as their options argument;
// those whose options default to a dtype (randint's kLong) keep it.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  auto a = torch::randn({10, 10});
  // CHECK: auto a = torch::randn({10, 10}, torch::device(device));
  auto b = torch::rand({2});
  // CHECK: auto b = torch::rand({2}, torch::device(device));
  auto c = torch::zeros({3, 4});
  // CHECK: auto c = torch::zeros({3, 4}, torch::device(device));
  auto d = torch::ones({5});
  // CHECK: auto d = torch::ones({5}, torch::device(device));
  auto e = torch::empty({2, 2});
  // CHECK: auto e = torch::empty({2, 2}, torch::device(device));
  auto f = torch::full({2, 2}, 7.5);
  // CHECK: auto f = torch::full({2, 2}, 7.5, torch::device(device));
  auto g = torch::arange(0, 10, 2);
  // CHECK: auto g = torch::arange(0, 10, 2, torch::device(device));
  auto h = torch::linspace(0, 1, 5);
  // CHECK: auto h = torch::linspace(0, 1, 5, torch::device(device));
  auto i = torch::eye(3);
  // CHECK: auto i = torch::eye(3, torch::device(device));
  auto j = torch::randint(0, 10, {4});
  // CHECK: auto j = torch::randint(0, 10, {4}, torch::dtype(torch::kLong).device(device));
  auto k = torch::tensor({1.0, 2.0, 3.0});
  // CHECK: auto k = torch::tensor({1.0, 2.0, 3.0}, torch::device(device));
  auto l = torch::randperm(8);
  // CHECK: auto l = torch::randperm(8, torch::dtype(torch::kLong).device(device));
  return static_cast<int>((a.sum() + b.sum() + c.sum() + d.sum() + e.numel() + f.sum() +
                           g.sum() + h.sum() + i.sum() + j.numel() + k.sum() + l.numel())
                              .item<float>()) & 0;
}
