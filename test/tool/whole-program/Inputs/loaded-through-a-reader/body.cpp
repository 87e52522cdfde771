#include "body.h"

void Body::read_matrix(torch::Tensor &into, float scale) {
  auto values = into.accessor<float, 2>();
  for (int64_t i = 0; i < into.size(0); ++i)
    for (int64_t j = 0; j < into.size(1); ++j)
      values[i][j] = scale * (i + j);
}

void Body::load(const std::string &scale) { read_matrix(regressor, std::stof(scale)); }

torch::Tensor Body::pose(const torch::Tensor &angles) const {
  return regressor.matmul(angles) + offsets;
}
