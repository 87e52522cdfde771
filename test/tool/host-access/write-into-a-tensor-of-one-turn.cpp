// Whether a tensor is read after host code may have written through its
// pointer, and whose memory it holds there, are asked of the function's CFG
// (facts/Liveness.h), not of where its uses are written: a tensor declared in
// a loop's body is a new one each turn, so its reads earlier in the body do
// not read this turn's write, and it gets its .cpu() copy (a segmentation
// preview's cv::Mat over a slice of the batch); a parameter taken by value
// and given a new tensor on every path before the write holds memory of its
// own (a tensor-to-image helper). Still refused (a warning, nothing
// rewritten): a by-value parameter that may still hold the caller's tensor
// on some path.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp 2>/dev/null | diff %t.cpp -
#include <torch/torch.h>

struct Image {
  Image(int n, void *data) : n(n), data(static_cast<unsigned char *>(data)) {}
  int n;
  unsigned char *data;
};

int brightness(const Image &image) {
  int total = 0;
  for (int i = 0; i < image.n; ++i)
    total += image.data[i];
  return total;
}

Image toImage(torch::Tensor scores) {
  scores = scores.mul(255).clamp(0, 255).to(torch::kUInt8);
  return Image(static_cast<int>(scores.numel()), scores.data_ptr());
  // CHECK: auto scores_host = scores.cpu();
  // CHECK-NEXT: return Image(static_cast<int>(scores.numel()), scores_host.data_ptr());
}

Image asImage(torch::Tensor scores) {
  return Image(static_cast<int>(scores.numel()), scores.data_ptr());
  // WARN: write-into-a-tensor-of-one-turn.cpp:[[@LINE-1]]:50: warning: host code writes into 'scores'{{.*}}[host-access]
}

Image maybeScaled(torch::Tensor scores, bool scale) {
  if (scale)
    scores = scores.mul(255).to(torch::kUInt8);
  return Image(static_cast<int>(scores.numel()), scores.data_ptr());
  // WARN: write-into-a-tensor-of-one-turn.cpp:[[@LINE-1]]:50: warning: host code writes into 'scores'{{.*}}[host-access]
}

int main() {
  torch::nn::Linear net(4, 3);
  auto input = torch::ones({2, 4});
  int total = 0;
  for (int step = 0; step < 2; ++step) {
    at::Tensor preview = net(input)[0].clone();
    preview = preview.argmax(0).to(torch::kUInt8);
    Image image(static_cast<int>(preview.numel()), preview.data_ptr());
    // CHECK: auto preview_host = preview.cpu();
    // CHECK-NEXT: Image image(static_cast<int>(preview.numel()), preview_host.data_ptr());
    total += brightness(image);
  }
  total += brightness(toImage(net(input).sigmoid()));
  return total;
}
