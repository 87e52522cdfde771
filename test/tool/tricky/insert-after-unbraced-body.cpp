// A statement inserted after a store that is the unbraced body of an if, an
// else, a while or a do gets braces around the body and itself, so it runs
// exactly when the store does; a constructor whose body ends with an unbraced
// `if (...) call();` gets its members' moves at its start, not inside that
// statement.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Agent {
  explicit Agent(bool restore) : actor(torch::nn::Linear(2, 1)) {
    if (restore) load();
  }
  // CHECK:      explicit Agent(bool restore) : actor(torch::nn::Linear(2, 1)) {
  // CHECK-NEXT:   actor->to(device);
  // CHECK-NEXT:   if (restore) load();
  // CHECK-NEXT: }
  void load() {}
  torch::nn::Linear actor;
};

int main(int argc, char **argv) {
  torch::nn::Linear net{nullptr}, other{nullptr};
  if (argc > 1)
    net = torch::nn::Linear(2, 1);
  else
    other = torch::nn::Linear(2, 1);
  // CHECK:      if (argc > 1) {
  // CHECK-NEXT:   net = torch::nn::Linear(2, 1);
  // CHECK-NEXT:   net->to(device);
  // CHECK-NEXT: }
  // CHECK-NEXT: else {
  // CHECK-NEXT:   other = torch::nn::Linear(2, 1);
  // CHECK-NEXT:   other->to(device);
  // CHECK-NEXT: }
  int tries = 0;
  while (tries++ < 1)
    net = torch::nn::Linear(2, 1);
  // CHECK:      while (tries++ < 1) {
  // CHECK-NEXT:   net = torch::nn::Linear(2, 1);
  // CHECK-NEXT:   net->to(device);
  // CHECK-NEXT: }
  do
    other = torch::nn::Linear(2, 1);
  while (false);
  // CHECK:      do {
  // CHECK-NEXT:   other = torch::nn::Linear(2, 1);
  // CHECK-NEXT:   other->to(device);
  // CHECK-NEXT: }
  // CHECK-NEXT: while (false);
  Agent agent(argc > 2);
  auto x = torch::ones({1, 2});
  return (net(x) + other(x) + agent.actor(x)).numel() == 1 ? 0 : 1;
}
