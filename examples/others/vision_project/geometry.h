#pragma once
#include <torch/torch.h>

// A `side` x `side` image of shape number `index`: one per sample.
torch::Tensor render_shape(int64_t index, int64_t side);
