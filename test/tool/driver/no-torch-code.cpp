// A file without LibTorch code comes out byte-identical.
// RUN: %migrate %s > %t.cpp
// RUN: cmp %s %t.cpp
#include <vector>
int main() {
  std::vector<int> device{1, 2, 3};
  return static_cast<int>(device.size()) - 3;
}
