#include <torch/torch.h>

#include "not_self_contained.h"

int main() { return bias().size(0) == 2 ? 0 : 1; }
