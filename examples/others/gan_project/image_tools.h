// Like most projects' headers, these use what the including file brought in
// (<torch/torch.h>): they are not self-contained.
#pragma once

#include <cstdint>
#include <vector>

// Decodes one "image" of a data set from host memory (an image library's
// buffer, in real programs): the data set's per-sample code calls it.
inline torch::Tensor pixelsToTensor(const std::vector<uint8_t> &pixels, int64_t side) {
  auto image = torch::from_blob(const_cast<uint8_t *>(pixels.data()), {1, side, side}, torch::kUInt8);
  return image.to(torch::kFloat).div(127.5).sub(1.0);
}
