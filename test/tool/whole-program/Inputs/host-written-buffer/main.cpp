#include "buffer.h"

#include <cstdio>

int main() {
  torch::manual_seed(0);
  torch::nn::Linear net(4, 1);
  Buffer buffer;
  const float values[4] = {1, 2, 3, 4};
  buffer.record(values);
  std::printf("%.4f\n", net(buffer.latest()).item<float>());
}
