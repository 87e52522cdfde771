// A tensor returned by a function or method whose body is not in this file is
// moved where it is received (a no-op when it is on the device already); a
// leaf handed to an optimizer is moved before the optimizer is built over it.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#include <string>

torch::Tensor load_image(const std::string &path);
struct Corpus {
  torch::Tensor get_data(int64_t batch_size);
};

double run(Corpus &corpus, torch::nn::Linear &model) {
  auto ids = corpus.get_data(20);
  // CHECK: auto ids = corpus.get_data(20).to(device);
  // NOTE: unseen-source.cpp:[[@LINE-2]]:14: note: 'get_data' returns a tensor whose placement the tool cannot see (its body is not in a file this run migrates){{.*}} [received-tensor]
  torch::Tensor content = load_image("content.png");
  // CHECK: torch::Tensor content = load_image("content.png").to(device);
  torch::Tensor target = content.clone();
  torch::optim::Adam opt({target.requires_grad_(true)}, 0.1);
  auto out = model(load_image("style.png"));
  // CHECK: auto out = model(load_image("style.png").to(device));
  return (ids.sum() + out.sum() + target.sum()).item<double>();
}
