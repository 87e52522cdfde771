#pragma once

#include "image_tools.h"

// Two unpaired image domains, made up from a seed.
class PairedDomains : public torch::data::datasets::Dataset<PairedDomains> {
public:
  PairedDomains(int64_t count, int64_t side) : count(count), side(side) {}

  torch::data::Example<> get(size_t index) override {
    std::vector<uint8_t> a(side * side), b(side * side);
    for (int64_t i = 0; i < side * side; ++i) {
      a[i] = static_cast<uint8_t>((index * 37 + i * 11) % 256);
      b[i] = static_cast<uint8_t>((index * 53 + i * 7) % 256);
    }
    return {pixelsToTensor(a, side), pixelsToTensor(b, side)};
  }
  torch::optional<size_t> size() const override { return count; }

private:
  int64_t count, side;
};
