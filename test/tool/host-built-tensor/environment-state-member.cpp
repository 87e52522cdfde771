// An environment keeps its state in a member tensor that it writes through an
// accessor member its constructor takes (`state_3d(state.accessor<..>())`),
// resets with numbers only (`state *= 0`) and marks with `index(..) = 1`: the
// state is built on the host, and what the agent receives of it, a clone
// returned through a virtual function, is moved where it is received.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <cstdio>

class Environment {
public:
  virtual ~Environment() = default;
  virtual torch::Tensor observe() const = 0;
  virtual void step(int64_t action) = 0;
};

class Grid : public Environment {
public:
  Grid() : state(torch::zeros({3, 3, 2})), state_3d(state.accessor<float, 3>()) { reset(); }
  // CHECK: Grid() : state(torch::zeros({3, 3, 2})), state_3d(state.accessor<float, 3>()) { reset(); }

  void reset() {
    state *= 0;
    state.index({0, "...", 1}) = 1;
    position = 0;
    state_3d[0][0][0] = 1;
  }
  void step(int64_t action) override {
    state_3d[position % 3][position / 3][0] = 0;
    position = (position + action + 1) % 9;
    state_3d[position % 3][position / 3][0] = 1;
  }
  torch::Tensor observe() const override { return state.clone(); }

private:
  torch::Tensor state;
  torch::TensorAccessor<float, 3> state_3d;
  int64_t position = 0;
};

int main() {
  torch::manual_seed(0);
  torch::nn::Linear policy(18, 2);
  std::unique_ptr<Environment> env = std::make_unique<Grid>();
  float total = 0;
  for (int t = 0; t < 5; ++t) {
    torch::Tensor input = env->observe();
    // CHECK: torch::Tensor input = env->observe().to(device);
    // ERR: environment-state-member.cpp:[[@LINE-2]]:27: note: 'observe' returns a tensor whose placement the tool cannot see (its body is an override chosen when the program runs)
    // ERR-NOT: warning:
    auto logits = policy(input.flatten());
    env->step(logits.argmax().item<int64_t>());
    total += logits.sum().item<float>();
  }
  std::printf("%.4f\n", total);
  return 0;
}
