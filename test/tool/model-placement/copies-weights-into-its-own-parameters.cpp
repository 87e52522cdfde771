// Transfer learning: a model whose own member function copies pretrained
// weights into its parameters (`for (auto &p : named_parameters())
// p.value().copy_(w)`) and replaces its head (`replace_module`) is moved
// after both, not right after its declaration: moved first, every weight
// would cross to the device twice and the old head once for nothing. A
// question that computes no tensor (`classifierInputs()`, to size the new
// head) may come before the move.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct NetImpl : torch::nn::Module {
  NetImpl()
      : features(register_module("features", torch::nn::Linear(4, 8))),
        classifier(register_module("classifier", torch::nn::Linear(8, 10))) {}
  torch::Tensor forward(torch::Tensor x) { return classifier->forward(features(x)); }
  void loadPretrained(const std::string &path) {
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    torch::NoGradGuard no_grad;
    for (auto &p : named_parameters()) {
      torch::Tensor w;
      if (archive.try_read(p.key(), w))
        p.value().copy_(w);
    }
  }
  int classifierInputs() const { return inputs; }
  void replaceClassifier(torch::nn::Linear head) {
    classifier = head;
    replace_module("classifier", head);
  }
  void freezeFeatures() {
    for (auto &p : features->parameters())
      p.requires_grad_(false);
  }
  int inputs = 8;
  torch::nn::Linear features{nullptr}, classifier{nullptr};
};

int main(int argc, char **argv) {
  NetImpl model;
  model.loadPretrained(argv[1]);
  auto head = torch::nn::Linear(model.classifierInputs(), 2);
  model.replaceClassifier(head);
  model.freezeFeatures();
  // CHECK:      NetImpl model;
  // CHECK-NEXT: model.loadPretrained(argv[1]);
  // CHECK-NEXT: auto head = torch::nn::Linear(model.classifierInputs(), 2);
  // CHECK:      model.replaceClassifier(head);
  // CHECK-NEXT: model.to(device);
  // CHECK-NEXT: model.freezeFeatures();
  return model.forward(torch::ones({1, 4})).numel() == 2 ? 0 : 1;
}
