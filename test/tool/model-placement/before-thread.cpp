// A model member a constructor builds is moved at the start of its body,
// before the thread the constructor starts to serve it; one assigned in the
// body, right after the assignment, also before the thread.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <thread>

class Server {
public:
  Server() : model(torch::nn::Linear(2, 1)) {
    backup = torch::nn::Linear(2, 1);
    worker = std::thread([this] { served = model(torch::ones({1, 2})).numel(); });
  }
  // CHECK:      Server() : model(torch::nn::Linear(2, 1)) {
  // CHECK-NEXT: model->to(device);
  // CHECK-NEXT: backup = torch::nn::Linear(2, 1);
  // CHECK-NEXT: backup->to(device);
  // CHECK-NEXT: worker = std::thread(
  ~Server() { worker.join(); }

private:
  torch::nn::Linear model;
  torch::nn::Linear backup{nullptr};
  std::thread worker;
  int64_t served = 0;
};

int main() {
  Server server;
  return 0;
}
