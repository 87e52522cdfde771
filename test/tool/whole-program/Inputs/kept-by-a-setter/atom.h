#pragma once
#include <torch/torch.h>

class Atom {
public:
  void set_position(torch::Tensor &position);
  void set_mass(double mass);
  torch::Tensor weighted() const;

private:
  torch::Tensor position_;
  torch::Tensor mass_;
};
