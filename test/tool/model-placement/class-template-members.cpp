// A class template that owns its model (a trainer generic over the model and
// its data) moves it at the end of its constructor: whether a member whose
// type is a template parameter holds a module is read from the instantiations
// the file makes. An empty constructor body gets the move on a line of its own.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(4, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc->forward(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

template <typename Module, typename Options>
class Trainer {
public:
  explicit Trainer(double lr) : model(), optimizer(model->parameters(), Options(lr)) {}
  // CHECK:      explicit Trainer(double lr) : model(), optimizer(model->parameters(), Options(lr)) {
  // CHECK-NEXT:   model->to(device);
  // CHECK-NEXT: }

  torch::Tensor step(torch::Tensor x) {
    optimizer.zero_grad();
    torch::Tensor loss = model->forward(x).sum();
    loss.backward();
    optimizer.step();
    return loss;
  }

private:
  Module model;
  int64_t steps = 0;
  torch::optim::SGD optimizer;
};

int main() {
  Trainer<Net, torch::optim::SGDOptions> trainer(0.1);
  // CHECK: Trainer<Net, torch::optim::SGDOptions> trainer(0.1);
  // CHECK-NOT: trainer.model
  return trainer.step(torch::ones({2, 4})).numel() == 1 ? 0 : 1;
}
