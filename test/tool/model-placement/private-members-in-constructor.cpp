// Modules that a plain class's constructor builds in its private members (a
// GAN trainer owning its generators and discriminator) are moved in that
// constructor: code that creates the object cannot reach them
// (`trainer.gen->to(device)` in main() would not compile). A member built in
// the initialiser list is moved at the start of the body, before anything
// uses it; a member the body assigns, right after the assignment. A member
// the constructor leaves empty is not moved, and main() gets nothing.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct CriticImpl : torch::nn::Module {
  CriticImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Critic);

class Trainer {
public:
  explicit Trainer(int64_t width)
      : gen(torch::nn::Linear(width, width), torch::nn::Tanh()),
        optimizer(gen->parameters(), torch::optim::AdamOptions(1e-3)) {
    critic = Critic();
    loss = std::make_shared<torch::nn::MSELossImpl>();
  }
  // CHECK:      optimizer(gen->parameters(), torch::optim::AdamOptions(1e-3)) {
  // CHECK-NEXT: gen->to(device);
  // CHECK-NEXT: critic = Critic();
  // CHECK-NEXT: critic->to(device);
  // CHECK-NEXT: loss = std::make_shared<torch::nn::MSELossImpl>();
  // CHECK-NEXT: loss->to(device);
  // CHECK-NEXT: }

  Trainer() : Trainer(4) {}
  // CHECK: Trainer() : Trainer(4) {}

  float step(torch::Tensor noise) {
    auto out = critic(gen->forward(noise));
    return loss->forward(out, torch::zeros_like(out)).item<float>();
  }

private:
  torch::nn::Sequential gen;
  Critic critic{nullptr};
  std::shared_ptr<torch::nn::MSELossImpl> loss;
  std::shared_ptr<CriticImpl> spare; // never built by the constructor
  // CHECK-NOT: spare->to(
  torch::optim::Adam optimizer;
};

int main() {
  Trainer trainer(4);
  // CHECK: Trainer trainer(4);
  // CHECK-NOT: trainer.{{.*}}->to(
  return trainer.step(torch::ones({2, 4})) > 0 ? 0 : 1;
}
