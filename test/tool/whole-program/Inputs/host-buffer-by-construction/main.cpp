#include "update.h"

#include <cstdio>

// The buffer's constructor takes a device; this program, written for the
// CPU, hands it the CPU through a runner of its own.
struct Runner {
  explicit Runner(torch::Device device) : buffer(device) {}
  Buffer buffer;
};

int main() {
  torch::manual_seed(0);
  torch::nn::Linear critic(4, 1);
  Runner runner(torch::kCPU);
  for (int step = 0; step < 8; ++step)
    runner.buffer.remember(torch::randn({4}));
  std::printf("%.6f\n", update(critic, runner.buffer));
}
