#include "data.h"

Graph::Graph(int64_t nodes)
    : edges_(torch::zeros({2, nodes}, torch::kLong)), features_(torch::zeros({nodes, 4})) {
  for (int64_t i = 0; i < nodes; ++i) {
    edges_[0][i] = i;
    edges_[1][i] = (i + 1) % nodes;
    for (int64_t j = 0; j < 4; ++j)
      features_[i][j] = static_cast<float>((i + j) % 3);
  }
}

std::pair<torch::Tensor, torch::Tensor> Graph::split() const {
  return {features_.slice(0, 0, 4), features_.slice(0, 4)};
}
