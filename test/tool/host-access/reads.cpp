// Host reads of a tensor's memory go through a CPU copy that lives as long as
// the pointer or accessor reading it; item() and printing need nothing.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <cstring>
#include <iostream>
#include <vector>

float sum(torch::Tensor t) {
  auto acc = t.accessor<float, 1>();
  // CHECK: auto t_host = t.cpu();
  // CHECK-NEXT: auto acc = t_host.accessor<float, 1>();
  float total = 0;
  for (int64_t i = 0; i < acc.size(0); ++i)
    total += acc[i];
  std::vector<float> values(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
  // CHECK: auto t_on_host = t.cpu();
  // CHECK-NEXT: std::vector<float> values(t_on_host.data_ptr<float>(), t_on_host.data_ptr<float>() + t.numel());
  float first;
  std::memcpy(&first, t.data_ptr<float>(), sizeof first);
  // CHECK: auto t_on_host_1 = t.cpu();
  // CHECK-NEXT: std::memcpy(&first, t_on_host_1.data_ptr<float>(), sizeof first);
  std::cout << t << t.item<float>() << "\n";
  // CHECK: std::cout << t << t.item<float>() << "\n";
  return total + values[0] + first;
}
