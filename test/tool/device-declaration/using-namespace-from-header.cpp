// The device's name is chosen by what the translation unit can see, not only
// by the file's own text: `using namespace torch;` in an included header makes
// `torch::device` visible at namespace scope, so a global named `device` would
// be ambiguous there; the declaration takes another name.
// RUN: %migrate %s -- -I%S/Inputs > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp -- -I%S/Inputs | diff %t.cpp -
#include "uses_torch_namespace.h"

int main() {
  nn::Linear layer = make_layer();
  // CHECK: const torch::Device target_device(
  // CHECK: layer->to(target_device);
  return layer(torch::ones({1, 2})).numel() == 2 ? 0 : 1;
}
