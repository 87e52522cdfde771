#pragma once
#include <torch/torch.h>
#include <vector>
class Graph {
public:
  Graph(torch::Tensor features, std::vector<std::pair<int, int>> edges);
  torch::Tensor getNodeFeatures() const;
  torch::Tensor getEdgeIndex() const;
private:
  torch::Tensor features_;
  torch::Tensor edge_index_;
};
