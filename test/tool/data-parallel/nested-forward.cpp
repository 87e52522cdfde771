// --data-parallel: a forward call whose input is another forward call
// (`decode(embed(ids))`, common in programs by others) gets the helper at
// both levels, the inner one inside the outer one's argument: no conflict,
// and the output compiles. A second run changes nothing.
// RUN: %migrate --data-parallel %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate --data-parallel %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  torch::nn::Embedding embed(12, 6);
  torch::nn::Linear decode(6, 12);
  auto ids = torch::randint(0, 12, {2, 5});
  for (int step = 0; step < 2; ++step) {
    auto logits = decode(embed(ids)).reshape({-1, 12});
    // CHECK: auto logits = data_parallel_forward(decode, data_parallel_forward(embed, ids)).reshape({-1, 12});
    auto again = decode->forward(embed->forward(ids));
    // CHECK: auto again = data_parallel_forward(decode, data_parallel_forward(embed, ids));
    logits.sum().backward();
  }
}
