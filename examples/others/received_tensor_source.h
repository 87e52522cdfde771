// Another team's code: builds tensors from host data, on the CPU. Compiled as
// its own library and not migrated (to-device-migrate sees only declarations).
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <vector>

class Corpus {
public:
  explicit Corpus(int64_t vocabulary);
  /// The token ids, `batch_size` rows.
  torch::Tensor get_data(int64_t batch_size) const;

private:
  std::vector<int64_t> tokens_;
};

/// A deterministic 3x8x8 "image" (a stand-in for a file loader).
torch::Tensor load_image(int seed);
