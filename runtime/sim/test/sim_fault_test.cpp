// Host code touching simulated-device memory dies with a message naming the fix.
#include "todevice/sim.h"

#include <gtest/gtest.h>

namespace {

using todevice::sim::device;

TEST(SimFaultDeathTest, ReadingThroughDataPtrFaults) {
  auto x = torch::ones({16}, device());
  EXPECT_DEATH(
      {
        volatile float v = x.data_ptr<float>()[3];
        (void)v;
      },
      // Built without debug info: the test's function names both places
      // (sim_source_line_test.cpp has the lines).
      "todevice_sim: host code read simulated-device memory in "
      ".*ReadingThroughDataPtrFaults.*TestBody: byte 12 of a 64-byte allocation made in "
      ".*ReadingThroughDataPtrFaults.*TestBody; call .cpu\\(\\) first");
}

TEST(SimFaultDeathTest, WritingThroughAccessorFaults) {
  auto x = torch::zeros({2, 3}, device());
  EXPECT_DEATH(
      {
        auto acc = (x.accessor<float, 2>());
        acc[1][2] = 1.0f;
      },
      "host code wrote simulated-device memory .*call .cpu\\(\\)");
}

TEST(SimFaultDeathTest, OtherSegfaultsAreNotBlamedOnTheSimulator) {
#if defined(TODEVICE_SANITIZED) // -DTODEVICE_SANITIZE=ON (.ci/sanitizers)
  GTEST_SKIP() << "stores through a null pointer on purpose: UBSan and ASan report it "
                  "before the simulator's signal handler could";
#endif
  EXPECT_EXIT(
      {
        volatile int* p = nullptr;
        *p = 1;
      },
      ::testing::KilledBySignal(SIGSEGV), "^$");
}

TEST(SimFault, CopyingBackToTheHostGivesAccessibleMemory) {
  auto x = torch::arange(6, torch::kFloat).to(device());
  auto host = x.cpu();
  EXPECT_EQ(host.data_ptr<float>()[5], 5.0f);
  EXPECT_EQ((host.accessor<float, 1>()[2]), 2.0f);
}

} // namespace
