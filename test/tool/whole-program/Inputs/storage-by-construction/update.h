#pragma once
#include "storage.h"

float update(torch::nn::Linear &critic, const Storage &storage);
