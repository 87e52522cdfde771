// An image copied from host memory and handed to a transform (per-sample code,
// which works on the CPU) stays on the host until the transform has run: it is
// not moved where it is built, not brought back for the transform, and what
// the transform returns is moved to the device, one copy as its authors would
// write it. An image that no transform sees is moved where it is built.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

double predict(torch::nn::Linear model, std::vector<uint8_t> &pixels, std::vector<float> &raw) {
  auto image = torch::from_blob(pixels.data(), {2, 2, 3}, torch::kByte).clone();
  // CHECK: auto image = torch::from_blob(pixels.data(), {2, 2, 3}, torch::kByte).clone();
  image = image.permute({2, 0, 1}).to(torch::kFloat);
  image = torch::data::transforms::Normalize<>({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5})(image);
  // CHECK: image = torch::data::transforms::Normalize<>({0.5, 0.5, 0.5}, {0.5, 0.5, 0.5})(image).to(device);
  // NOTE: host-image-into-transform.cpp:[[@LINE-2]]:11: note: 'Normalize' is per-sample code, which stays on the CPU: what it is handed was built on the host and stays there until then, and what it returns is moved to the device [per-sample-call]
  auto features = torch::from_blob(raw.data(), {1, 12}).clone();
  // CHECK: auto features = torch::from_blob(raw.data(), {1, 12}).to(device).clone();
  auto out = model->forward(image.reshape({1, 12})) + model->forward(features);
  return out.sum().item<double>();
}

int main() {
  torch::nn::Linear model(12, 2);
  std::vector<uint8_t> pixels(12, 7);
  std::vector<float> raw(12, 0.5f);
  std::cout << predict(model, pixels, raw) << "\n";
}
