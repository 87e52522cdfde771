// Programs by others, #23 classes 1 and 2, in the shape of a CycleGAN project:
// its headers (gan_project/) use the torch names main.cpp brought in, so they
// are migrated from this file's parse (--header-filter); the trainer keeps its
// models private, so they are moved in its constructor; the data set's
// per-sample code calls a helper of another header, which stays on the CPU.
#include <torch/torch.h>

#include "gan_project/trainer.h"

int main() {
  torch::manual_seed(3);
  Trainer trainer(/*channels=*/4, /*side=*/8);
  trainer.train(/*epochs=*/3);
}
