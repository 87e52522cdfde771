// UTF-8 in comments and string literals before a site does not shift any
// offset (offsets are bytes); a very long line is rewritten in place.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <iostream>

int main() {
  // Ünïcödé — 日本語のコメント — emoji 🚀 before the sites.
  std::cout << "température: " << "→ 😀" << "\n"; auto t = torch::zeros({2});
  // CHECK: std::cout << "température: " << "→ 😀" << "\n"; auto t = torch::zeros({2}, torch::device(device));
  auto long_line = torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1}) + torch::ones({1});
  // CHECK: auto long_line = torch::ones({1}, torch::device(device)) + torch::ones({1}, torch::device(device)) + {{.*}} + torch::ones({1}, torch::device(device));
  // CHECK-NOT: torch::ones({1}) +
  return static_cast<int>(t.numel() + long_line.numel()) - 3;
}
