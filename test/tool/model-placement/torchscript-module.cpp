// A TorchScript module (torch::jit::load), local or member, is moved with
// .to(device) once it is loaded, before it is used; what it is fed is placed
// by the other rules.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/script.h>
#include <torch/torch.h>

class Detector {
public:
  explicit Detector(const std::string &path) {
    module_ = torch::jit::load(path);
    module_.eval();
  }
  // CHECK:      module_ = torch::jit::load(path);
  // CHECK-NEXT: module_.to(device);
  // CHECK-NEXT: module_.eval();
  torch::Tensor run(torch::Tensor image) { return module_.forward({image}).toTensor(); }

private:
  torch::jit::script::Module module_;
};

int main(int argc, char **argv) {
  torch::jit::Module classifier = torch::jit::load(argv[1]);
  // CHECK:      torch::jit::Module classifier = torch::jit::load(argv[1]);
  // CHECK-NEXT: classifier.to(device);
  std::vector<torch::jit::IValue> inputs{torch::ones({1, 3})};
  auto scores = classifier.forward(inputs).toTensor();
  Detector detector(argv[2]);
  return (scores.numel() + detector.run(torch::ones({1, 3})).numel()) > 0 ? 0 : 1;
}
