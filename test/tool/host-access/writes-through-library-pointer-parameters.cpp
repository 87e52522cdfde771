// The standard library writes through a parameter declared as a pointer to
// non-const (`std::istream::read(char *, n)`), and through the iterators of
// the algorithms named for it (`std::sort`): a tensor written so is never
// given a .cpu() copy, the write would land in the copy. A tensor its
// function makes and fills so is built on the host and moved where device
// code takes it; one handed to a function that fills it so is made on the
// host. Algorithms that only read (`std::accumulate`) still read
// through one copy.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <algorithm>
#include <numeric>
#include <sstream>

torch::Tensor read_images(std::istream &images, int64_t count) {
  auto tensor = torch::empty({count, 4}, torch::kByte);
  images.read(reinterpret_cast<char *>(tensor.data_ptr()), tensor.numel());
  return tensor.to(torch::kFloat32).div_(255);
}
// CHECK:      auto tensor = torch::empty({count, 4}, torch::kByte);
// CHECK-NEXT: images.read(reinterpret_cast<char *>(tensor.data_ptr()), tensor.numel());

void refill(std::istream &images, torch::Tensor into) {
  images.read(static_cast<char *>(into.data_ptr()), into.numel());
  // WARN-DAG: writes-through-library-pointer-parameters.cpp:[[@LINE-1]]:35: warning: host code writes into 'into' through data_ptr()
  std::sort(into.data_ptr<uint8_t>(), into.data_ptr<uint8_t>() + into.numel());
  // WARN-DAG: writes-through-library-pointer-parameters.cpp:[[@LINE-1]]:13: warning: host code writes into 'into' through data_ptr()
  // WARN-DAG: writes-through-library-pointer-parameters.cpp:[[@LINE-2]]:39: warning: host code writes into 'into' through data_ptr()
}
// CHECK-NOT: into.cpu()

float total(torch::Tensor values) {
  return std::accumulate(values.data_ptr<float>(), values.data_ptr<float>() + values.numel(), 0.0f);
}
// CHECK:      auto values_host = values.cpu();
// CHECK-NEXT: return std::accumulate(values_host.data_ptr<float>(), values_host.data_ptr<float>() + values.numel(), 0.0f);

int main() {
  std::istringstream file(std::string(32, '\x40'));
  torch::nn::Linear net(4, 1);
  auto images = read_images(file, 4);
  auto scores = net(images);
  auto bytes = torch::zeros({4}, torch::kByte);
  // CHECK: auto bytes = torch::zeros({4}, torch::kByte);
  refill(file, bytes);
  std::cout << scores.sum().item<float>() + total(scores.detach()) + bytes.sum().item<float>() << "\n";
  return 0;
}
