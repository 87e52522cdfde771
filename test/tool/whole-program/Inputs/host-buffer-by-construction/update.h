#pragma once
#include "buffer.h"

float update(torch::nn::Linear &critic, const Buffer &buffer);
