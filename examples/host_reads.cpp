// Reads results back on the host: an accessor, data_ptr(), a std::vector built
// from data_ptr(), memcpy out of a tensor. After migration the tensors live on
// the device and each read goes through a CPU copy (host-access).
#include <torch/torch.h>

#include <cstring>
#include <iostream>
#include <vector>

int main() {
  torch::manual_seed(1);
  auto weights = torch::randn({3, 4});
  auto inputs = torch::rand({4, 2});
  auto product = torch::matmul(weights, inputs);

  auto acc = product.accessor<float, 2>();
  float trace = 0;
  for (int64_t i = 0; i < 2; ++i)
    trace += acc[i][i];
  std::cout << "trace " << trace << "\n";

  std::vector<float> flat(product.data_ptr<float>(), product.data_ptr<float>() + product.numel());
  float sum = 0;
  for (float v : flat)
    sum += v;
  std::cout << "sum " << sum << "\n";

  float row[4];
  std::memcpy(row, weights.data_ptr<float>(), sizeof row);
  std::cout << "first row " << row[0] << " " << row[1] << " " << row[2] << " " << row[3] << "\n";
  std::cout << "max " << product.max().item<float>() << "\n";
  return 0;
}
