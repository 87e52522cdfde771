#pragma once
#include <torch/script.h>
#include <torch/torch.h>

#include <thread>

// Writes a small TorchScript scorer to `path`.
void write_scorer(const std::string &path);

// Loads a TorchScript module and serves it from a thread of its own, started
// by the constructor.
class InferenceServer {
public:
  explicit InferenceServer(const std::string &path);
  ~InferenceServer();
  float result();

private:
  torch::jit::Module scorer_;
  std::thread worker_;
  float result_ = 0;
};
