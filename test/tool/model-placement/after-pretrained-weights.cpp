// Pretrained weights copied into a model on the host (each parameter
// `copy_`'d under NoGradGuard from a model loaded from a checkpoint), and a
// replaced head, come before the model's move: the weights cross once. The
// model they come from is only read on the host and stays there. A function
// of the file that loads into the model it is handed counts as its
// initialisation too.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

struct BackboneImpl : torch::nn::Module {
  BackboneImpl()
      : body(register_module("body", torch::nn::Linear(4, 4))),
        fc(register_module("fc", torch::nn::Linear(4, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(body(x)); }
  torch::nn::Linear body, fc;
};
TORCH_MODULE(Backbone);

void load_pretrained(Backbone &model, const std::string &path) { torch::load(model, path); }

int main(int argc, char **argv) {
  Backbone pretrained;
  torch::load(pretrained, argv[1]);
  // NOTE: after-pretrained-weights.cpp:[[@LINE-2]]:12: note: module 'pretrained' is only read on the host
  // CHECK:     torch::load(pretrained, argv[1]);
  // CHECK-NOT: pretrained->to(
  Backbone model;
  {
    torch::NoGradGuard no_grad;
    auto source = pretrained->named_parameters();
    for (auto &p : model->named_parameters())
      if (p.key().find("fc") == std::string::npos)
        p.value().copy_(source[p.key()]);
  }
  model->fc = model->replace_module("fc", torch::nn::Linear(4, 2));
  // CHECK:      model->fc = model->replace_module("fc", torch::nn::Linear(4, 2));
  // CHECK-NEXT: model->to(device);
  torch::optim::SGD optimizer(model->parameters(), 0.1);

  Backbone restored;
  load_pretrained(restored, argv[1]);
  // CHECK:      Backbone restored;
  // CHECK-NEXT: load_pretrained(restored, argv[1]);
  // CHECK-NEXT: restored->to(device);
  return model(torch::ones({1, 4})).numel() + restored(torch::ones({1, 4})).numel() == 12 ? 0 : 1;
}
