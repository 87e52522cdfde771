#include "update.h"

#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear critic(4, 1);
  Buffer buffer;
  for (int step = 0; step < 8; ++step)
    buffer.remember(torch::randn({4}));
  std::printf("%.6f\n", update(critic, buffer));
}
