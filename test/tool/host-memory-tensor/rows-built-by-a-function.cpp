// Rows a function of the program builds from host values alone (a board
// encoded with from_blob and a few factories) and that its callers gather
// and join stay on the CPU, function and all; the joined batch is moved,
// once. Placed, each row would cost a copy or more (an MCTS evaluator copied
// ten times more than its authors). A builder that reaches a tensor of
// someone else's, or whose row is used as is, is placed as before.
// RUN: %migrate %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <utility>
#include <vector>

struct Board {
  int cells[9] = {0, 1, 2, 0, 1, 2, 0, 1, 2};
  bool black = true;
};

torch::Tensor encode(Board *board) {
  torch::Tensor planes = torch::from_blob(board->cells, {1, 3, 3}, torch::kInt32).to(torch::kFloat);
  // CHECK: torch::Tensor planes = torch::from_blob(board->cells, {1, 3, 3}, torch::kInt32).to(torch::kFloat);
  torch::Tensor colour = board->black ? torch::zeros({1, 3, 3}) : torch::ones({1, 3, 3});
  // CHECK-NEXT: torch::Tensor colour = board->black ? torch::zeros({1, 3, 3}) : torch::ones({1, 3, 3});
  return torch::cat({planes, colour});
}

torch::Tensor bias = torch::ones({2, 3, 3});

torch::Tensor encodeWithBias(Board *board) {
  return torch::from_blob(board->cells, {1, 3, 3}, torch::kInt32).to(torch::kFloat) + bias;
  // CHECK: return torch::from_blob(board->cells, {1, 3, 3}, torch::kInt32).to(device).to(torch::kFloat) + bias;
}

int main() {
  torch::nn::Conv2d net(torch::nn::Conv2dOptions(2, 1, 3));
  std::vector<Board> boards(4);
  std::vector<torch::Tensor> rows;
  for (Board &b : boards)
    rows.emplace_back(std::move(encode(&b)));
  torch::Tensor batch = torch::stack(rows);
  // CHECK: torch::Tensor batch = torch::stack(rows).to(device);
  std::vector<torch::Tensor> biased;
  for (Board &b : boards)
    biased.push_back(encodeWithBias(&b));
  torch::Tensor other = torch::stack(biased);
  // CHECK: torch::Tensor other = torch::stack(biased);
  std::cout << net->forward(batch).sum().item<float>() + net->forward(other).sum().item<float>()
            << "\n";
}
