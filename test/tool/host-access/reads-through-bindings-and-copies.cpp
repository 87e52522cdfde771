// Host reads that reach a tensor through more than a view are brought to the
// host too: a name a structured binding gives (`auto [action, logp] =
// agent.act(s);`, an RL agent's action read with data_ptr on the device) and
// a chain of tensor methods (`t.contiguous().data_ptr<float>()`). A chain
// that already brings it to the host is left alone; a tensor computed in the
// expression itself gets a warning, never silence.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>
#include <iostream>
#include <utility>

std::pair<torch::Tensor, torch::Tensor> act(torch::nn::Linear &net, torch::Tensor s) {
  auto out = net->forward(s);
  return {out.tanh(), out.sum()};
}

int main() {
  torch::nn::Linear net(2, 2);
  auto [action, logp] = act(net, torch::ones({1, 2}));
  auto a = action.squeeze().data_ptr<float>();
  // CHECK: auto action_host = action.cpu();
  // CHECK-NEXT: auto a = action_host.squeeze().data_ptr<float>();
  auto scores = net->forward(torch::zeros({1, 2}));
  const float *p = scores.contiguous().data_ptr<float>();
  // CHECK: auto scores_host = scores.cpu();
  // CHECK-NEXT: const float *p = scores_host.contiguous().data_ptr<float>();
  const float *q = scores.cpu().contiguous().data_ptr<float>();
  // CHECK: const float *q = scores.cpu().contiguous().data_ptr<float>();
  float r = *net->forward(torch::ones({1, 2})).data_ptr<float>();
  // WARN: reads-through-bindings-and-copies.cpp:[[@LINE-1]]:14: warning: host code reaches the memory of a tensor computed here through data_ptr(){{.*}}[host-access]
  std::cout << a[0] + p[1] + q[0] + r + logp.item<float>() << "\n";
}
