// Models kept in standard containers are moved once they are in: layers
// appended in a loop, after the loop (one move over the container); an element
// assigned, right after it; a map's values; a std::array built at once.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

int main() {
  std::vector<torch::nn::Linear> layers;
  for (int i = 0; i < 3; ++i)
    layers.push_back(torch::nn::Linear(2, 2));
  // CHECK:      layers.push_back(torch::nn::Linear(2, 2));
  // CHECK-NEXT: for (auto &module : layers) {
  // CHECK-NEXT:   module->to(device);
  // CHECK-NEXT: }
  std::map<std::string, std::shared_ptr<torch::nn::LinearImpl>> heads;
  heads["score"] = std::make_shared<torch::nn::LinearImpl>(2, 1);
  // CHECK:      heads["score"] = std::make_shared<torch::nn::LinearImpl>(2, 1);
  // CHECK-NEXT: heads["score"]->to(device);
  std::array<torch::nn::Linear, 2> pair{torch::nn::Linear(2, 2), torch::nn::Linear(2, 2)};
  // CHECK:      std::array<torch::nn::Linear, 2> pair{torch::nn::Linear(2, 2), torch::nn::Linear(2, 2)};
  // CHECK-NEXT: for (auto &module : pair) {
  // CHECK-NEXT:   module->to(device);
  // CHECK-NEXT: }
  std::vector<torch::nn::AnyModule> stages;
  stages.emplace_back(torch::nn::Linear(2, 2));
  // CHECK:      stages.emplace_back(torch::nn::Linear(2, 2));
  // CHECK-NEXT: for (auto &module : stages) {
  // CHECK-NEXT:   module.ptr()->to(device);
  // CHECK-NEXT: }
  auto x = torch::ones({1, 2});
  for (auto &layer : layers)
    x = layer(x);
  x = pair[1](pair[0](x));
  x = stages[0].forward(x);
  return heads["score"]->forward(x).numel() == 1 ? 0 : 1;
}
