// A function given tensors computes where they are, so its result is not
// moved; but one whose body fills the tensor it returns from host code
// returns it on the CPU whatever it was given (a resize writing its output
// through data_ptr, r10_styletransfer): that result is moved where it is
// received.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

void resize_rows(const float *in, int n, float *out) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i / 2];
}

torch::Tensor resized(const torch::Tensor &image, int n) {
  torch::Tensor host = image.cpu();
  torch::Tensor output = torch::zeros({n});
  resize_rows(host.data_ptr<float>(), n, output.data_ptr<float>());
  return output;
}

torch::Tensor doubled(const torch::Tensor &x) { return x * 2; }

int main() {
  torch::nn::Linear layer(4, 1);
  torch::Tensor image = torch::ones({2});
  torch::Tensor big = resized(image, 4);
  // CHECK: torch::Tensor big = resized(image, 4).to(device);
  // NOTE: host-built-whatever-it-is-given.cpp:[[@LINE-2]]:23: note: 'resized' returns a tensor whose placement the tool cannot see (its body fills it from host code, so it is built on the CPU){{.*}}[received-tensor]
  torch::Tensor twice = doubled(big);
  // CHECK: torch::Tensor twice = doubled(big);
  return static_cast<int>(layer(twice).sum().item<float>());
}
