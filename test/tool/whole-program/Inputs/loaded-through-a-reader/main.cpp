#include "body.h"

#include <cstdio>

int main() {
  Body body;
  body.load("0.5");
  torch::Tensor angles = torch::ones({4});
  std::printf("%.4f\n", body.pose(angles).sum().item<float>());
}
