// A class that pins its model to the CPU each time it predicts or trains
// (`mNet->to(torch::kCPU)`, a CPU program making sure its model is where its
// inputs are) runs it on the device all the same: the pin stays as written,
// with a note, and the model is moved back right after it, since what
// follows runs it. A pin nothing runs the model after (before saving) is
// left as the program's last word.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>

template <typename Model>
class Player {
public:
  float predict(torch::Tensor board) {
    torch::NoGradGuard no_grad;
    net->eval();
    net->to(torch::Device(torch::kCPU));
    torch::Tensor out = net(board);
    return out.sum().item<float>();
  }
  // CHECK: net->eval();
  // CHECK-NEXT: net->to(torch::Device(torch::kCPU));
  // CHECK-NEXT: net->to(device);
  // CHECK-NEXT: torch::Tensor out = net(board);
  // NOTE: pinned-before-each-use.cpp:[[@LINE-8]]:{{[0-9]+}}: note: explicit CPU placement kept
  void save(const std::string &path) {
    net->to(torch::kCPU);
    torch::save(net, path);
  }
  // CHECK: net->to(torch::kCPU);
  // CHECK-NEXT: torch::save(net, path);
  Model net{4, 1};
};

int main() {
  Player<torch::nn::Linear> player;
  std::cout << player.predict(torch::ones({2, 4})) << "\n";
  return 0;
}
