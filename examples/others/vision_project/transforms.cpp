#include "transforms.h"

torch::Tensor standardize(torch::Tensor image) {
  torch::Tensor spread = image.std() + torch::full({1}, 1e-3);
  return (image - image.mean()) / spread;
}
