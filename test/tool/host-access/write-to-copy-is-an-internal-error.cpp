// The tool's own assertion that it never redirects a write to a copy: with
// the host-access rule made to miss writes on purpose (the only way to see the
// assertion at work), the write through `labels`' pointer would go to a .cpu()
// copy. The compile check finds it in the rewritten code, names it as an
// internal error at the write, exits non-zero and leaves the file untouched.
// RUN: cp %s %t.cpp
// RUN: not %migrate --miss-host-writes-for-testing -i %t.cpp 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: diff %s %t.cpp
#include <torch/torch.h>

void label(torch::Tensor labels) {
  float *p = (float *)labels.data_ptr();
  p[0] = 1.0f;
}
// CHECK: write-to-copy-is-an-internal-error.cpp.tmp.cpp:[[@LINE-3]]:23: error: internal error: host code would write into 'labels_host', a .cpu() copy this run inserted: on a GPU the write would be lost [host-access]
// CHECK-NOT: internal error

int main() {
  auto labels = torch::zeros({2});
  label(labels);
  return labels.sum().item<float>() == 1.0f ? 0 : 1;
}
