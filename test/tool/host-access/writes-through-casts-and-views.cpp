// A tensor the function did not build (a parameter, a member) and writes
// through a cast pointer, a view's pointer, std::copy into the pointer, or a
// pointer kept in a member is reported at the write, never given a .cpu()
// copy: the write would land in the copy. Reads still get one.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
#include <torch/torch.h>

#include <algorithm>
#include <vector>

struct Buffer {
  float *cursor = nullptr;
  void attach(torch::Tensor t) { cursor = t.data_ptr<float>(); }
  // WARN-DAG: writes-through-casts-and-views.cpp:[[@LINE-1]]:43: warning: host code writes into 't' through data_ptr()
};

void fill(torch::Tensor labels, torch::Tensor rows, const std::vector<float> &values) {
  float *p = (float *)labels.data_ptr();
  p[0] = 1.0f;
  // WARN-DAG: writes-through-casts-and-views.cpp:[[@LINE-2]]:23: warning: host code writes into 'labels' through data_ptr()
  std::copy(values.begin(), values.end(), static_cast<float *>(rows[1].data_ptr()));
  // WARN-DAG: writes-through-casts-and-views.cpp:[[@LINE-1]]:64: warning: host code writes into 'rows' through data_ptr()
  float first = rows[0].data_ptr<float>()[0];
  // CHECK:      auto rows_host = rows.cpu();
  // CHECK-NEXT: float first = rows_host[0].data_ptr<float>()[0];
  (void)first;
}
// CHECK-NOT: labels.cpu()
// CHECK-NOT: labels_host

int main() {
  auto labels = torch::zeros({2});
  auto rows = torch::zeros({2, 2});
  Buffer buffer;
  buffer.attach(torch::zeros({4}));
  fill(labels, rows, {1.0f, 2.0f});
  return static_cast<int>(labels.sum().item<float>() + rows.sum().item<float>()) - 4;
}
