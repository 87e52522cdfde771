// When defaulted parameters stand between the last argument written and the
// options (`torch::normal(mean, std, size, generator = c10::nullopt,
// options = {})`), their defaults are written out so the device can follow,
// as that LibTorch's header spells them (`std::nullopt` from LibTorch 2.x).
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

torch::Tensor noise(int64_t n) { return torch::normal(0.0, 1.0, {n, 2}); }
// CHECK: return torch::normal(0.0, 1.0, {n, 2}, ::{{c10|std}}::nullopt, torch::device(device));

int main() { return noise(3).numel() == 6 ? 0 : 1; }
