// Staging tensors a program makes once and fills every step through raw
// pointers — cast (`(float *)`, `static_cast`), taken from a view (`t[0]`,
// `t.select(1, 0)`) — stay on the CPU, where the writes land; each use by the
// model or the loss gets the step's values moved, after the writes. Nothing is
// read or written through a .cpu() copy: on a GPU that would train on zeros.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=ERR --allow-empty %s < %t.err
// RUN: %migrate %t.cpp | diff %t.cpp -
#include <torch/torch.h>

#include <iostream>

int main() {
  auto t_data = torch::zeros({4, 2});
  auto t_label = torch::zeros({4, 1});
  // CHECK:      auto t_data = torch::zeros({4, 2});
  // CHECK-NEXT: auto t_label = torch::zeros({4, 1});
  torch::nn::Linear model(2, 1);
  torch::optim::SGD optimizer(model->parameters(), 0.1);
  float total = 0;
  for (int step = 0; step < 3; ++step) {
    float *data = (float *)t_data[0].data_ptr();
    float *labels = static_cast<float *>(t_label.select(1, 0).data_ptr());
    for (int i = 0; i < 4; ++i) {
      data[2 * i] = static_cast<float>(i);
      data[2 * i + 1] = static_cast<float>(step);
      labels[i] = static_cast<float>(i + step);
    }
    // CHECK:      float *data = (float *)t_data[0].data_ptr();
    // CHECK-NEXT: float *labels = static_cast<float *>(t_label.select(1, 0).data_ptr());
    optimizer.zero_grad();
    auto loss = torch::mse_loss(model(t_data), t_label);
    // CHECK: auto loss = torch::mse_loss(model(t_data.to(device)), t_label.to(device));
    loss.backward();
    optimizer.step();
    total += loss.item<float>();
  }
  std::cout << total << "\n";
  // CHECK-NOT: .cpu()
  // ERR-NOT: host code writes
  return 0;
}
