#pragma once
#include <torch/torch.h>

// Scales an image to zero mean and unit spread: called per sample.
torch::Tensor standardize(torch::Tensor image);
