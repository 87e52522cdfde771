#include "update.h"

#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear critic(4, 1);
  // The storage's constructor asks for a device: this program, written for
  // the CPU, gives it the CPU.
  Storage storage(8, torch::kCPU);
  for (int64_t step = 0; step < 8; ++step)
    storage.insert(step, torch::randn({4}));
  std::printf("%.6f\n", update(critic, storage));
}
