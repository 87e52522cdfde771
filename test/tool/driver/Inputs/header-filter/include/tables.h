// Tensors built outside the functions main() calls directly: a table at
// namespace scope and a mask helper, used by a model's forward(). Not
// self-contained: it uses the torch names its includer brought in.
#pragma once

namespace tables {
inline const torch::Tensor positions = torch::arange(16, torch::kFloat).unsqueeze(1);
inline torch::Tensor causalMask(int64_t n) { return torch::ones({n, n}).tril(); }
} // namespace tables

struct ScorerImpl : torch::nn::Module {
  ScorerImpl() : fc(register_module("fc", torch::nn::Linear(1, 1))) {}
  torch::Tensor forward(torch::Tensor ids) {
    torch::Tensor x = fc(tables::positions.index_select(0, ids));
    return tables::causalMask(x.size(0)).matmul(x);
  }
  torch::nn::Linear fc;
};
TORCH_MODULE(Scorer);
