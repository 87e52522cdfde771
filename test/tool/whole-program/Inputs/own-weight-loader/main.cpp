#include <iostream>

#include "darknet.h"

int main() {
  Darknet net;
  std::cout << net->net_info() << "\n";
  std::vector<float> buffer(4 * 3 + 3 + 3 * 2 + 2, 0.5f);
  net->load_weights(buffer);
  auto y = net->forward(torch::ones({1, 4}));
  std::cout << y.sum().item<float>() << "\n";
  return 0;
}
