#include "received_tensor_source.h"

Corpus::Corpus(int64_t vocabulary) {
  for (int64_t i = 0; i < 4 * 9; ++i)
    tokens_.push_back((i * 7 + i / 3) % vocabulary);
}

torch::Tensor Corpus::get_data(int64_t batch_size) const {
  auto ids = torch::tensor(tokens_, torch::kLong);
  return ids.narrow(0, 0, (ids.size(0) / batch_size) * batch_size).view({batch_size, -1});
}

torch::Tensor load_image(int seed) {
  std::vector<float> pixels(3 * 8 * 8);
  for (size_t i = 0; i < pixels.size(); ++i)
    pixels[i] = static_cast<float>((i * seed) % 17) / 17.0f;
  return torch::from_blob(pixels.data(), {3, 8, 8}).clone();
}
