// Host code that may write through a tensor's pointer (`Mask mask(n,
// out.data_ptr())`, a host library wrapping a model's output) reads the
// tensor's memory through a .cpu() copy when nothing reads the tensor after
// that statement: any write lands in the copy, which is what the host code
// then reads through the same pointer (r10_segengine's cv::Mat). Still
// refused (a warning, nothing rewritten): a tensor read afterwards, one read
// again on the next turn of a loop, and one sharing another tensor's memory.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

struct Mask {
  Mask(int n, void *data) : n(n), data(static_cast<unsigned char *>(data)) {}
  int n;
  unsigned char *data;
};

int count(const Mask &m) {
  int total = 0;
  for (int i = 0; i < m.n; ++i)
    total += m.data[i];
  return total;
}

int main() {
  torch::nn::Linear net(4, 3);
  auto input = torch::ones({2, 4});
  at::Tensor classes = net(input);
  classes = classes.argmax(1).to(torch::kUInt8);
  Mask mask(2, classes.data_ptr());
  // CHECK: auto classes_host = classes.cpu();
  // CHECK-NEXT: Mask mask(2, classes_host.data_ptr());
  int total = count(mask);

  at::Tensor scores = net(input).argmax(1).to(torch::kUInt8);
  Mask kept(2, scores.data_ptr());
  // WARN: write-into-a-tensor-read-no-more.cpp:[[@LINE-1]]:16: warning: host code writes into 'scores'{{.*}}[host-access]
  total += count(kept) + scores.sum().item<int>();

  for (int step = 0; step < 2; ++step) {
    at::Tensor guess = net(input).argmax(1).to(torch::kUInt8);
    for (int again = 0; again < 2; ++again) {
      Mask each(2, guess.data_ptr());
      // WARN: write-into-a-tensor-read-no-more.cpp:[[@LINE-1]]:20: warning: host code writes into 'guess'{{.*}}[host-access]
      total += count(each) + guess.numel();
    }
  }

  at::Tensor base = net(input).argmax(1).to(torch::kUInt8);
  at::Tensor shared = base;
  Mask alias(2, shared.data_ptr());
  // WARN: write-into-a-tensor-read-no-more.cpp:[[@LINE-1]]:17: warning: host code writes into 'shared'{{.*}}[host-access]
  return total + count(alias);
}
