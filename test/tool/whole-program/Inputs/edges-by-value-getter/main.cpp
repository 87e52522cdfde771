#include "graph.h"
#include <iostream>
struct NetImpl : torch::nn::Module {
  NetImpl() { fc = register_module("fc", torch::nn::Linear(3, 2)); }
  torch::Tensor forward(torch::Tensor x, torch::Tensor edge_index) {
    return fc(x.index_select(0, edge_index.select(0, 0)));
  }
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);
int main() {
  Graph graph(torch::randn({4, 3}), {{0, 1}, {1, 2}, {2, 3}});
  Net model;
  auto features = graph.getNodeFeatures();
  auto edge_index = graph.getEdgeIndex();
  std::cout << model->forward(features, edge_index).sum().item<float>() << "\n";
}
