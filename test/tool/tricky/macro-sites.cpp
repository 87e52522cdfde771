// Sites that come from a macro are never rewritten (that would change the
// macro's body, and so every use): each rule reports the site where the macro
// is used, and the output stays as written there.
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: %strip %t.cpp | FileCheck %s
// RUN: FileCheck --check-prefix=WARN %s < %t.err
// RUN: %migrate %t.cpp 2> /dev/null | diff %t.cpp -
#include <torch/torch.h>

#define TO_GPU(t) t.cuda()
#define MAKE_MODEL(name) torch::nn::Linear name(2, 2)
#define MOVE(t, d) t.to(d)

void run(torch::Tensor x, torch::Device d) {
  if (torch::cuda::is_available())
    x = TO_GPU(x);
  // CHECK: x = TO_GPU(x);
  // WARN-DAG: macro-sites.cpp:[[@LINE-2]]:9: warning: this site comes from a macro expansion and is not rewritten {{.*}} [hardcoded-device]
  MOVE(x, d);
  // CHECK: MOVE(x, d);
  // WARN-DAG: macro-sites.cpp:[[@LINE-2]]:3: warning: this site comes from a macro expansion and is not rewritten {{.*}} [discarded-move]
}

int main() {
  MAKE_MODEL(model);
  // CHECK: MAKE_MODEL(model);
  // CHECK-NOT: model->to(
  // WARN-DAG: macro-sites.cpp:[[@LINE-3]]:3: warning: this site comes from a macro expansion and is not rewritten {{.*}} [model-placement]
  return static_cast<int>(model->weight.size(0)) - 2;
}
