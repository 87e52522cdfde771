#pragma once

class PrivateTrainer {
public:
  explicit PrivateTrainer(int64_t n) : gen(torch::nn::Linear(n, n)), n(n) {}
  int64_t width() const { return n; }

private:
  torch::nn::Sequential gen;
  int64_t n;
};
