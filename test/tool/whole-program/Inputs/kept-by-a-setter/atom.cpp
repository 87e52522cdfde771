#include "atom.h"

void Atom::set_position(torch::Tensor &position) { position_ = position; }
void Atom::set_mass(double mass) { mass_ = torch::tensor(mass, torch::kDouble); }
torch::Tensor Atom::weighted() const { return position_ * mass_; }
