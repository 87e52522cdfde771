#include "buffer.h"

#include <cstring>

Buffer::Buffer() : frame_(torch::zeros({4})) {}

void Buffer::record(const float *values) { std::memcpy(frame_.data_ptr<float>(), values, 4 * sizeof(float)); }

torch::Tensor Buffer::latest() const { return frame_.clone(); }
