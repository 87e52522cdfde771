// Negative: writes through data_ptr/accessor are not rewritten (a .cpu() copy
// would take the write); each is reported with [host-access].
// RUN: %migrate %s > %t.cpp 2> %t.err
// RUN: diff %s %t.cpp
// RUN: FileCheck %s < %t.err
#include <torch/torch.h>
#include <cstring>

void fill(torch::Tensor t, const float *source) {
  auto acc = t.accessor<float, 2>();
  // CHECK: writes-reported.cpp:[[@LINE-1]]:14: warning: host code writes into 't' through accessor(){{.*}} [host-access]
  // CHECK-NEXT: {{^( *[0-9]+ \|)?}} auto acc = t.accessor<float, 2>();{{$}}
  // CHECK-NEXT: {{^( *\|)?}} ^{{$}}
  acc[0][1] = 2.0f;
  float *p = t.data_ptr<float>();
  // CHECK: writes-reported.cpp:[[@LINE-1]]:14: warning: host code writes into 't' through data_ptr(){{.*}} [host-access]
  *p = 1.0f;
  std::memcpy(t.data_ptr<float>(), source, 4 * sizeof(float));
  // CHECK: writes-reported.cpp:[[@LINE-1]]:15: warning: {{.*}}[host-access]
  t.data_ptr<float>()[3] += 1.0f;
  // CHECK: writes-reported.cpp:[[@LINE-1]]:3: warning: {{.*}}[host-access]
}
