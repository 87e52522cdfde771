#pragma once
#include <torch/torch.h>

torch::Tensor make_batch(int64_t rows);
