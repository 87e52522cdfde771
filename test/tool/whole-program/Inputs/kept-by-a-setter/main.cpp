#include "atom.h"

#include <array>
#include <iostream>

int main() {
  std::array<double, 3> read = {1, 2, 3};
  torch::Tensor position = torch::from_blob(read.data(), {3}, torch::kDouble).clone();
  Atom atom;
  atom.set_position(position);
  atom.set_mass(2.0);
  std::cout << atom.weighted().sum().item<double>() << "\n";
}
