// Hard-coded CUDA placements become the portable device, so the program runs
// on machines without a GPU.
// RUN: %migrate --no-compile-check %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::Device dev(torch::kCUDA);
  // CHECK: torch::Device dev(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
  auto x = torch::ones({2}, torch::device(dev));
  auto a = x.cuda();
  // CHECK: auto a = x.to(dev);
  auto b = x.to(torch::kCUDA);
  // CHECK: auto b = x.to(dev);
  auto c = torch::zeros({2}, torch::device(torch::kCUDA));
  // CHECK: auto c = torch::zeros({2}, torch::device(dev));
  auto d = x.to(torch::Device(torch::kCUDA));
  // CHECK: auto d = x.to(dev);
  torch::nn::Linear fc(2, 2);
  fc->to(torch::kCUDA);
  // CHECK: fc->to(dev);
  return static_cast<int>((a + b + c + d).sum().item<float>()) * 0;
}
