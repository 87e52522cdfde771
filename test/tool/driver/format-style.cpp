// --format-style (default `file`): the lines the tool changed are formatted
// with the .clang-format above the file, as clang-tidy formats its fixes;
// every other line stays as written. `none` leaves the edits as the rules
// wrote them; with no .clang-format found, `file` does the same.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: printf 'BasedOnStyle: LLVM\nColumnLimit: 60\n' > %t.dir/.clang-format
// RUN: %strip %s > %t.dir/train.cpp
// RUN: %migrate %t.dir/train.cpp > %t.formatted.cpp
// RUN: FileCheck --check-prefix=FORMATTED %s < %t.formatted.cpp
// RUN: %migrate --format-style=none %t.dir/train.cpp | FileCheck --check-prefix=NONE %s
// RUN: %migrate --format-style=llvm %s | %strip | FileCheck --check-prefix=LLVM %s
// RUN: cp %t.formatted.cpp %t.dir/train.cpp && %migrate %t.dir/train.cpp | diff %t.dir/train.cpp -
#include <torch/torch.h>

int main() {
  auto weights_for_the_first_layer = torch::randn({128, 256}, torch::kFloat32).requires_grad_();
  int   keep  =  1;   // not changed by the tool: not formatted
  return keep - 1 + static_cast<int>(weights_for_the_first_layer.size(0)) - 128;
}
// FORMATTED:      auto weights_for_the_first_layer =
// FORMATTED-NEXT:     torch::randn({128, 256},
// FORMATTED-NEXT:                  torch::TensorOptions(torch::kFloat32)
// FORMATTED-NEXT:                      .device(device))
// FORMATTED-NEXT:         .requires_grad_();
// FORMATTED-NEXT: int   keep  =  1;   // not changed by the tool: not formatted
// NONE: auto weights_for_the_first_layer = torch::randn({128, 256}, torch::TensorOptions(torch::kFloat32).device(device)).requires_grad_();
// NONE: int   keep  =  1;
// LLVM:      auto weights_for_the_first_layer =
// LLVM-NEXT:     torch::randn({128, 256},
// LLVM-NEXT:                  torch::TensorOptions(torch::kFloat32).device(device))
// LLVM-NEXT:         .requires_grad_();
// LLVM-NEXT: int   keep  =  1;
