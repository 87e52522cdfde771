// --data-parallel: forward calls of cloneable modules (LibTorch's own, or a
// user module derived from torch::nn::Cloneable) in a training loop use
// data_parallel when there are several CUDA devices, the plain call otherwise,
// through one helper; data_parallel's header is included only by a CUDA build of
// LibTorch (this one is CPU-only: the output must still compile). A second run
// changes nothing.
// RUN: %migrate --data-parallel %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate --data-parallel %t.cpp | diff %t.cpp -
#include <torch/torch.h>
// CHECK:      #if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>) // LibTorch built with CUDA
// CHECK-NEXT: #include <torch/nn/parallel/data_parallel.h>
// CHECK-NEXT: #endif
// CHECK:      template <typename Module>
// CHECK-NEXT: torch::Tensor data_parallel_forward(Module &module, const torch::Tensor &input) {
// CHECK-NEXT: #if __has_include(<c10/cuda/impl/cuda_cmake_macros.h>) // LibTorch built with CUDA
// CHECK-NEXT:   if (torch::cuda::device_count() > 1)
// CHECK-NEXT:     return torch::nn::parallel::data_parallel(module, input);
// CHECK-NEXT: #endif
// CHECK-NEXT:   return module->forward(input);
// CHECK-NEXT: }
// CHECK-EMPTY:
// CHECK-NEXT: int main() {

struct NetImpl : torch::nn::Cloneable<NetImpl> {
  NetImpl() { reset(); }
  void reset() override { fc = register_module("fc", torch::nn::Linear(4, 1)); }
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

int main() {
  torch::nn::Linear linear(4, 4);
  Net net;
  auto x = torch::ones({8, 4});
  for (int step = 0; step < 2; ++step) {
    auto hidden = linear(x);
    // CHECK: auto hidden = data_parallel_forward(linear, x);
    auto out = net->forward(hidden);
    // CHECK: auto out = data_parallel_forward(net, hidden);
    out.sum().backward();
  }
  auto once = linear(x); // outside a loop: not a training step
  // CHECK: auto once = linear(x);
  return static_cast<int>(once.size(0)) - 8;
}
