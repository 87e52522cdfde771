// A module a constructor or a setter is handed and stores into a member (a
// temporary the caller built in the call, often) is the object's from then on:
// it is moved where it is stored, also by a constructor template. A module
// already on the device is not copied again.
// RUN: %migrate --no-compile-check %s > %t.cpp
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

struct Task {
  template <typename Classifier>
  Task(std::string name_, Classifier classifier_) : name(std::move(name_)), classifier(classifier_) {}
  // CHECK:      Task(std::string name_, Classifier classifier_) : name(std::move(name_)), classifier(classifier_) {
  // CHECK-NEXT:   classifier.ptr()->to(device);
  // CHECK-NEXT: }
  std::string name;
  torch::nn::AnyModule classifier;
};

struct Trainer {
  explicit Trainer(torch::nn::Linear net_) : net(net_) {}
  // CHECK:      explicit Trainer(torch::nn::Linear net_) : net(net_) {
  // CHECK-NEXT:   net->to(device);
  // CHECK-NEXT: }
  void set_head(std::shared_ptr<torch::nn::LinearImpl> h) { head = h; }
  // CHECK: void set_head(std::shared_ptr<torch::nn::LinearImpl> h) { head = h; head->to(device); }
  torch::nn::Linear net;
  std::shared_ptr<torch::nn::LinearImpl> head;
};

int main() {
  std::vector<Task> tasks;
  tasks.push_back(Task("score", torch::nn::Linear(2, 1)));
  // CHECK:      tasks.push_back(Task("score", torch::nn::Linear(2, 1)));
  // CHECK-NEXT: Trainer trainer(torch::nn::Linear(2, 2));
  Trainer trainer(torch::nn::Linear(2, 2));
  trainer.set_head(std::make_shared<torch::nn::LinearImpl>(2, 1));
  auto x = torch::ones({1, 2});
  auto y = trainer.head->forward(trainer.net(x)) + tasks[0].classifier.forward(x);
  return y.numel() == 1 ? 0 : 1;
}
