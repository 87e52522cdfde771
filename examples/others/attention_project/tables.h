// Not self-contained (it uses the torch names its includer brought in), like
// most projects' headers: a lookup table at namespace scope and a mask helper,
// both used by the model's forward().
#pragma once

#include <cmath>

namespace tables {

// Fixed sinusoidal positions, one row per position, built once.
inline const torch::Tensor positions = [] {
  torch::Tensor table = torch::zeros({16, 8});
  torch::Tensor position = torch::arange(0, 16, torch::kFloat).unsqueeze(1);
  torch::Tensor scale = torch::exp(torch::arange(0, 8, 2, torch::kFloat) * (-std::log(10000.0) / 8));
  table.slice(1, 0, 8, 2) = torch::sin(position * scale);
  table.slice(1, 1, 8, 2) = torch::cos(position * scale);
  return table;
}();

// -inf above the diagonal: position i attends to positions <= i.
inline torch::Tensor causalMask(int64_t length) {
  return torch::full({length, length}, -INFINITY).triu(1);
}

} // namespace tables
