// A tensor copied from host data and handed to a function of the program that
// keeps it in a member (`atom.set_position(p)`, taking `torch::Tensor &`) is
// needed wherever that member is: the function's summary says it keeps the
// parameter (ParameterNeed::Kept), so the copy is moved where it is made, as
// the factories that fill the object's other members are (a molecular
// dynamics program's atoms, read from a file, whose positions met masses on
// the device). Negative: one handed by non-const reference to a function that
// only reads it on the host stays there.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %syntax-check %t.cpp
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <array>
#include <iostream>

class Atom {
public:
  void set_position(torch::Tensor &position) { position_ = position; }
  void set_mass(double mass) { mass_ = torch::tensor(mass, torch::kDouble); }
  torch::Tensor weighted() const { return position_ * mass_; }

private:
  torch::Tensor position_;
  torch::Tensor mass_;
};

void show(torch::Tensor &values) { std::cout << values.sum().item<double>() << "\n"; }

int main() {
  std::array<double, 3> read = {1, 2, 3};
  torch::Tensor position = torch::from_blob(read.data(), {3}, torch::kDouble).clone();
  // CHECK: torch::Tensor position = torch::from_blob(read.data(), {3}, torch::kDouble).to(device).clone();
  Atom atom;
  atom.set_position(position);
  atom.set_mass(2.0);
  torch::Tensor printed = torch::from_blob(read.data(), {3}, torch::kDouble).clone();
  // CHECK: torch::Tensor printed = torch::from_blob(read.data(), {3}, torch::kDouble).clone();
  show(printed);
  std::cout << atom.weighted().sum().item<double>() << "\n";
}
