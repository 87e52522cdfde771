// Code written inside LibTorch's own namespaces (`namespace torch { namespace
// nn {`, a project extending the library) sees `torch::device`, and the
// `at::device` that torch's using-directive brings, wherever it uses the
// device: a global named `device` would be ambiguous there, so the
// declaration takes another name.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

// CHECK: const torch::Device target_device(
namespace torch {
namespace nn {
inline Tensor noise(int64_t n) { return torch::randn({n}); }
// CHECK: return torch::randn({n}, torch::device(target_device));
} // namespace nn
} // namespace torch

int main() { return torch::nn::noise(2).numel() == 2 ? 0 : 1; }
