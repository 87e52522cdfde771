// Staging tensors kept as members, made by the constructor (a member
// initialiser, an in-class initialiser) or by an init() function, and filled
// by another member function through an accessor, a cast data_ptr() and
// element writes, stay on the CPU where those writes land; where the model
// or the loss uses them, in the class or outside it, the step's values are
// moved. A member given a computed tensor is not host-built: a host write
// into it is reported, not redirected to a copy; as no device code needs it,
// it is made on the host, where that write lands.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=ERR %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <cstdio>

class Trainer {
public:
  Trainer() : inputs(torch::zeros({4, 3})) { init(); }
  // CHECK: Trainer() : inputs(torch::zeros({4, 3})) { init(); }

  void init() { labels = torch::zeros({4, 1}); }
  // CHECK: void init() { labels = torch::zeros({4, 1}); }

  void fill(int step) {
    auto in = inputs.accessor<float, 2>();
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 3; ++j)
        in[i][j] = static_cast<float>((step + i + j) % 5);
      float *label = (float *)labels[i].data_ptr();
      label[0] = static_cast<float>(i % 2);
      weights[i] = 1.0f + step;
    }
  }
  // CHECK:      auto in = inputs.accessor<float, 2>();
  // CHECK:      float *label = (float *)labels[i].data_ptr();

  torch::Tensor loss(torch::nn::Linear &model) {
    return torch::binary_cross_entropy_with_logits(model->forward(inputs), labels, weights);
  }
  // CHECK: return torch::binary_cross_entropy_with_logits(model->forward(inputs.to(device)), labels.to(device), weights.to(device));

  torch::Tensor inputs, labels;
  torch::Tensor weights = torch::ones({4, 1});
  // CHECK: torch::Tensor weights = torch::ones({4, 1});
};

// Given a computed tensor: not host-built, but written by host code.
struct Scratch {
  torch::Tensor values = torch::ones({4});
  // CHECK: torch::Tensor values = torch::ones({4});
  void scale() { values = values * 2; }
  void poke() { values.data_ptr<float>()[0] = 1.0f; }
  // ERR: staging-members.cpp:[[@LINE-1]]:17: warning: host code writes into 'values' through data_ptr()
};

int main() {
  torch::manual_seed(0);
  torch::nn::Linear model(3, 1);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  Trainer trainer;
  for (int step = 0; step < 3; ++step) {
    trainer.fill(step);
    optimizer.zero_grad();
    torch::Tensor loss = trainer.loss(model);
    loss.backward();
    optimizer.step();
    std::printf("%.5f %.5f\n", loss.item<float>(), model(trainer.inputs).sum().item<float>());
    // CHECK: std::printf("%.5f %.5f\n", loss.item<float>(), model(trainer.inputs.to(device)).sum().item<float>());
  }
  Scratch scratch;
  scratch.scale();
  std::printf("%.1f\n", scratch.values.sum().item<float>());
  return 0;
}
