// A loop in a template this file never instantiates: the loop variable's
// `.data` and `.target` are taken for a batch's, moved, and a note says so.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=NOTE %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

template <typename Model, typename DataLoader>
void train(Model &model, DataLoader &loader) {
  for (auto &batch : loader) {
    // NOTE: template-not-instantiated.cpp:[[@LINE-1]]:14: note: 'batch' is taken for a data-loader batch {{.*}} [data-loader-batch]
    // CHECK: for (auto &batch : loader) {
    // CHECK-NEXT: batch.data = batch.data.to(device);
    // CHECK-NEXT: batch.target = batch.target.to(device);
    auto loss = torch::nll_loss(model->forward(batch.data), batch.target);
    loss.backward();
  }
}
