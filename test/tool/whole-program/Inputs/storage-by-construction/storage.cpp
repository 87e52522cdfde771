#include "storage.h"

Storage::Storage(int64_t steps, torch::Device device) : device_(device) {
  observations_ = torch::zeros({steps, 4}, torch::TensorOptions(device));
}

void Storage::insert(int64_t step, const torch::Tensor &observation) {
  observations_[step].copy_(observation);
}

void Storage::clear() {
  observations_ = torch::zeros(observations_.sizes(), torch::TensorOptions(device_));
}
