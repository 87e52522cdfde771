#pragma once
#include <torch/torch.h>

// Scales features to [0, 1]: called per sample by the dataset (main.cpp) and
// by the model's forward.
torch::Tensor rescale(const torch::Tensor &x);
