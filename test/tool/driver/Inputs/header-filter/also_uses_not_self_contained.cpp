#include <torch/torch.h>

#include "not_self_contained.h"

torch::Tensor twice() { return bias() * 2; }
