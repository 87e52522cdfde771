// A function returning `preprocess(t)`, where the program's `Tensor
// &preprocess(Tensor &t)` hands back the tensor it was given, returns that
// tensor: when it is host-built, what the function returns is on the CPU and
// is moved where it is received (r10_styletransfer's imageToTensor).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <cstring>

torch::Tensor &scaled(torch::Tensor &t) { return t.div_(255); }

torch::Tensor image_from(const unsigned char *pixels, int n) {
  torch::Tensor t = torch::zeros({n}, torch::kByte);
  std::memcpy(t.data_ptr(), pixels, n);
  t = t.to(torch::kFloat);
  return scaled(t);
}

int main() {
  const unsigned char pixels[4] = {1, 2, 3, 4};
  torch::nn::Linear net(4, 1);
  torch::Tensor image = image_from(pixels, 4);
  // CHECK: torch::Tensor image = image_from(pixels, 4).to(device);
  return static_cast<int>(net(image).sum().item<float>());
}
