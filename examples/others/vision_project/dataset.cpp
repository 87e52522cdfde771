#include "dataset.h"
#include "geometry.h"
#include "transforms.h"

torch::data::Example<> ShapesDataset::get(size_t index) {
  torch::Tensor image = standardize(render_shape(static_cast<int64_t>(index), 6));
  return {image.flatten(), torch::full({}, static_cast<int64_t>(index % 3), torch::kLong)};
}
