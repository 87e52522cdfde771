// Negative: loops in instantiated templates over anything but batches stay
// as written, however their elements are used.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: diff %s %t.cpp
// RUN: not grep data-loader-batch %t.err
#include <torch/torch.h>

struct Record {
  torch::Tensor data;
  torch::Tensor target;
};

template <typename Range>
double total(const Range &range) {
  double sum = 0;
  for (const auto &item : range)
    sum += item.data.sum().template item<double>() + item.target.numel();
  for (const auto &item : range) {
    sum += item.data.numel();
  }
  return sum;
}

double run(const std::vector<Record> &records) { return total(records); }
