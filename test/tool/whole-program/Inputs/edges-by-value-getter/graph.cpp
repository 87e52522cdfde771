#include "graph.h"
Graph::Graph(torch::Tensor features, std::vector<std::pair<int, int>> edges) : features_(features) {
  auto options = torch::TensorOptions().dtype(torch::kInt64);
  edge_index_ = torch::zeros({2, static_cast<int64_t>(edges.size())}, options);
  for (size_t i = 0; i < edges.size(); ++i) {
    edge_index_[0][i] = edges[i].first;
    edge_index_[1][i] = edges[i].second;
  }
}
torch::Tensor Graph::getNodeFeatures() const { return features_; }
torch::Tensor Graph::getEdgeIndex() const { return edge_index_; }
