#pragma once
#include <torch/torch.h>

#include <string>

class Body {
public:
  void load(const std::string &scale);
  torch::Tensor pose(const torch::Tensor &angles) const;

private:
  static void read_matrix(torch::Tensor &into, float scale);
  torch::Tensor regressor = torch::zeros({3, 4});
  torch::Tensor offsets = torch::zeros({3});
};
