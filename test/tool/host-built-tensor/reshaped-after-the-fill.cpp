// A tensor host code fills stays host-built when the fill is followed by new
// values made from the tensor alone (`t = t.transpose(0, 2)`, `t =
// t.to(torch::kFloat)`): they compute nothing from another tensor and run
// wherever it is. The factory may end in such a chain too
// (`torch::zeros(...).to(torch::kByte)`). Placing either factory on the device
// would have the host write device memory (r10_styletransfer).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <cstring>

torch::Tensor image_from(const unsigned char *pixels, int w, int h) {
  torch::Tensor t = torch::zeros({h, w, 3}).to(torch::kByte);
  // CHECK: torch::Tensor t = torch::zeros({h, w, 3}).to(torch::kByte);
  std::memcpy(t.data_ptr(), pixels, w * h * 3);
  t = t.transpose(0, 2);
  t = t.to(torch::kFloat).div(256.0f);
  // CHECK: t = t.to(torch::kFloat).div(256.0f);
  return t;
}

void halve(const float *in, float *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = in[i] / 2;
}

torch::Tensor halved(int n) {
  torch::Tensor input = torch::ones({n});
  torch::Tensor output = torch::zeros({n});
  // CHECK: torch::Tensor output = torch::zeros({n});
  halve(input.data_ptr<float>(), output.data_ptr<float>(), n);
  output = output.view({1, n});
  // CHECK: output = output.view({1, n});
  return output;
}

int main() {
  const unsigned char pixels[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  torch::nn::Linear layer(2, 2);
  auto image = image_from(pixels, 2, 2);
  // CHECK: auto image = image_from(pixels, 2, 2).to(device);
  auto half = halved(2);
  // CHECK: auto half = halved(2).to(device);
  return static_cast<int>(layer(image).sum().item<float>() + layer(half).sum().item<float>());
}
