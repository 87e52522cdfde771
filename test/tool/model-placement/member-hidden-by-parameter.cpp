// A constructor whose parameter has its member's name (`actor(actor)`) moves
// the member through `this->`: in its body the bare name is the parameter, so
// a second run would not see the member moved and would move it again.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <memory>

struct Agent {
  Agent(std::shared_ptr<torch::nn::LinearImpl> actor, torch::nn::Linear critic_)
      : actor(actor), critic(critic_) {
    if (!actor)
      throw std::runtime_error("no actor");
  }
  // CHECK:      : actor(actor), critic(critic_) {
  // CHECK-NEXT:   this->actor->to(device);
  // CHECK-NEXT:   critic->to(device);
  // CHECK-NEXT:   if (!actor)
  std::shared_ptr<torch::nn::LinearImpl> actor;
  torch::nn::Linear critic;
};

int main() {
  Agent agent(std::make_shared<torch::nn::LinearImpl>(2, 1), torch::nn::Linear(2, 1));
  auto x = torch::ones({1, 2});
  return (agent.actor->forward(x) + agent.critic(x)).numel() == 1 ? 0 : 1;
}
