#include "geometry.h"

torch::Tensor render_shape(int64_t index, int64_t side) {
  torch::Tensor image = torch::zeros({1, side, side});
  const int64_t kind = index % 3;
  for (int64_t row = 0; row < side; ++row)
    image.index_put_({0, row, (row * (kind + 1)) % side}, 1.0 + static_cast<double>(index % 5));
  return image;
}
