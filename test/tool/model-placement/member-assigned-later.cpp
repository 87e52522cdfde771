// A model member that starts empty (`Net net{nullptr};`, a null shared_ptr)
// and is assigned in another member function (an Initialize(), a load()) is
// moved there, right after the assignment and the checkpoint loaded into it;
// the constructor, where it is still empty, moves nothing. The same in a
// class template.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  explicit NetImpl(int64_t width) : fc(register_module("fc", torch::nn::Linear(width, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

class Segmentor {
public:
  Segmentor() { steps = 0; }
  // CHECK:      Segmentor() { steps = 0; }
  void Initialize(int64_t width, const std::string &weights) {
    net = Net(width);
    if (!weights.empty())
      torch::load(net, weights);
    head = std::make_shared<torch::nn::LinearImpl>(1, 1);
  }
  // CHECK:      net = Net(width);
  // CHECK-NEXT: if (!weights.empty())
  // CHECK-NEXT: torch::load(net, weights);
  // CHECK-NEXT: net->to(device);
  // CHECK-NEXT: head = std::make_shared<torch::nn::LinearImpl>(1, 1);
  // CHECK-NEXT: head->to(device);
  torch::Tensor predict(torch::Tensor x) { return head->forward(net->forward(x)); }

private:
  Net net{nullptr};
  std::shared_ptr<torch::nn::LinearImpl> head;
  int steps;
};

template <typename Model> class Trainer {
public:
  void build(int64_t width) { model = Model(width); }
  // CHECK:      void build(int64_t width) { model = Model(width); model->to(device); }
  torch::Tensor step(torch::Tensor x) { return model->forward(x); }

private:
  Model model{nullptr};
};

int main() {
  Segmentor segmentor;
  segmentor.Initialize(3, "");
  Trainer<Net> trainer;
  trainer.build(3);
  auto x = torch::ones({2, 3});
  return (segmentor.predict(x) + trainer.step(x)).numel() == 2 ? 0 : 1;
}
