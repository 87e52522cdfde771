// A tensor whose memory host code writes (`std::memcpy(t.data_ptr(), ...)`)
// is built on the host even when it is later computed with other tensors
// (`t = t.sub(mean).div(stdev)`, an image normalized after loading): only host
// memory takes the write. It is moved where the device computes with it.
// A tensor written element by element (`t[0] = 1`) and then computed with
// others is where they are: an element write runs on the device too, and a
// function given a tensor makes its own where that one is (`offset.device()`).
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <cstring>

torch::Tensor normalized(const unsigned char *pixels, int w, int h, const torch::Tensor &mean,
                         const torch::Tensor &stdev) {
  torch::Tensor t = torch::empty({h, w, 3}, torch::kByte);
  // CHECK: torch::Tensor t = torch::empty({h, w, 3}, torch::kByte);
  std::memcpy(t.data_ptr(), pixels, w * h * 3);
  t = t.permute({2, 0, 1}).to(torch::kFloat).div(255);
  t = t.sub(mean).div(stdev);
  // CHECK: t = t.to(device).sub(mean).div(stdev);
  return t.unsqueeze(0);
}

torch::Tensor shifted(const torch::Tensor &offset) {
  torch::Tensor s = torch::zeros({3, 1, 1});
  // CHECK: torch::Tensor s = torch::zeros({3, 1, 1}, torch::device(offset.device()));
  s[0] = 1;
  s = s + offset;
  return s;
}

int main() {
  const unsigned char pixels[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  torch::nn::Conv2d conv(torch::nn::Conv2dOptions(3, 2, 1));
  auto mean = torch::full({3, 1, 1}, 0.5);
  auto stdev = torch::full({3, 1, 1}, 0.25);
  auto x = normalized(pixels, 2, 2, mean, shifted(stdev));
  return static_cast<int>(conv(x).sum().item<float>());
}
