#pragma once
#include <torch/torch.h>

// Sample points along a ray: made per sample by the dataset (dataset.cpp).
torch::Tensor sample_points(int64_t count);
