// A tensor its function builds and then fills from host code (an RL
// environment's observation: memcpy into data_ptr(), accessor writes) stays on
// the CPU where it is built: its factory gets no device, its writes are not
// reported, its reads get no .cpu(). What the function returns is moved where
// it is received (received-tensor), as per-sample data is. A tensor the
// function did not build (a parameter) is still reported.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <cstring>
#include <vector>

struct Environment {
  std::vector<double> position{0.5, -0.25};

  torch::Tensor observe() {
    torch::Tensor state = torch::zeros({1, 2}, torch::kF64);
    std::memcpy(state.data_ptr(), position.data(), position.size() * sizeof(double));
    return state;
  }
  // CHECK: torch::Tensor state = torch::zeros({1, 2}, torch::kF64);

  torch::Tensor grid() {
    auto cells = torch::zeros({2, 2});
    auto acc = cells.accessor<float, 2>();
    acc[1][0] = 1.0f;
    float total = cells.data_ptr<float>()[0] + acc[1][0];
    return cells + total;
  }
  // CHECK: auto cells = torch::zeros({2, 2});
  // CHECK: float total = cells.data_ptr<float>()[0] + acc[1][0];

  torch::Tensor reward() { return torch::full({1, 1}, 0.5, torch::kF64); }
  // CHECK: torch::full({1, 1}, 0.5, torch::TensorOptions(torch::kF64).device(device))
};

int main() {
  torch::nn::Linear policy(2, 1);
  policy->to(torch::kF64);
  Environment env;
  torch::Tensor value = policy(env.observe()) + env.reward();
  // CHECK: torch::Tensor value = policy(env.observe().to(device)) + env.reward();
  // NOTE: note: 'observe' returns a tensor whose placement the tool cannot see (its body fills it from host code, so it is built on the CPU)
  return value.numel() + env.grid().numel() == 5 ? 0 : 1;
}
