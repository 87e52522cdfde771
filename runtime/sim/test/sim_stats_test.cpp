// Transfer statistics, the exit report, and TODEVICE=sim.
#include "todevice/sim.h"
#include "todevice/todevice.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace {

using todevice::sim::device;

TEST(SimStats, CountsCopiesAndBytesInBothDirections) {
  auto host = torch::ones({10, 10}); // 400 bytes
  todevice::sim::reset_stats();
  auto on_device = host.to(device());
  auto doubled = on_device.to(torch::kDouble); // device to device: not a transfer
  auto back = doubled.cpu();                  // 800 bytes
  auto s = todevice::sim::stats();
  EXPECT_EQ(s.host_to_device_copies, 1u);
  EXPECT_EQ(s.host_to_device_bytes, 400u);
  EXPECT_EQ(s.device_to_host_copies, 1u);
  EXPECT_EQ(s.device_to_host_bytes, 800u);
}

TEST(SimStats, OperatorsDoNotCountButItemDoes) {
  auto x = torch::randn({32}).to(device());
  todevice::sim::reset_stats();
  auto y = (x * 2).exp().sum();
  EXPECT_EQ(todevice::sim::stats().device_to_host_copies, 0u);
  EXPECT_EQ(todevice::sim::stats().host_to_device_copies, 0u);
  (void)y.item<float>(); // a real device->host copy on a GPU
  EXPECT_EQ(todevice::sim::stats().device_to_host_copies, 1u);
  EXPECT_EQ(todevice::sim::stats().device_to_host_bytes, 4u);
}

TEST(SimStats, ResetZeroesEveryCounter) {
  auto x = torch::ones({3}).to(device()).cpu();
  todevice::sim::reset_stats();
  auto s = todevice::sim::stats();
  EXPECT_EQ(s.host_to_device_copies + s.host_to_device_bytes + s.device_to_host_copies +
                s.device_to_host_bytes,
            0u);
}

TEST(SimStats, HeavyOperatorsCountedWhereTheyRun) {
  todevice::sim::count_operators();
  auto before = todevice::sim::operator_stats();
  auto x = torch::randn({2, 4});
  auto w = torch::randn({4, 3});
  auto on_host = torch::mm(x, w);
  // Run by the simulator with CPU kernels on host aliases: still the device's.
  auto on_device = torch::mm(x.to(device()), w.to(device()));
  auto image = torch::randn({1, 1, 5, 5}).to(device());
  auto convolved = torch::conv2d(image, torch::randn({1, 1, 3, 3}).to(device()));
  auto elementwise = (x + 1).exp(); // not a heavy operator
  auto after = todevice::sim::operator_stats();
  EXPECT_EQ(after.heavy_on_host - before.heavy_on_host, 1u);
  EXPECT_GE(after.heavy_on_device - before.heavy_on_device, 2u);
  EXPECT_EQ(after.first_heavy_on_host, "aten::mm");
  EXPECT_EQ(todevice::sim::format_operator_stats({3, 1, "aten::addmm"}),
            "todevice_sim: heavy operators: 3 on the device, 1 on the host (the first: aten::addmm)");
}

TEST(SimStats, ReportPrintedAtExitWhenRequested) {
  // A fresh process, not a fork: a forked child inherits none of the parent's
  // threads, and LeakSanitizer then reports their thread-local data as leaked.
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  EXPECT_EXIT(
      {
        setenv("TODEVICE_SIM_REPORT", "1", 1);
        todevice::sim::reset_stats();
        auto x = torch::ones({4}).to(device());
        std::exit(0);
      },
      ::testing::ExitedWithCode(0),
      "todevice_sim: host->device: 1 copies, 16 bytes; device->host: 0 copies, 0 bytes");
}

TEST(SimStats, NoReportWithoutTheVariable) {
  // A fresh process, not a fork: a forked child inherits none of the parent's
  // threads, and LeakSanitizer then reports their thread-local data as leaked.
  ::testing::GTEST_FLAG(death_test_style) = "threadsafe";
  EXPECT_EXIT(
      {
        unsetenv("TODEVICE_SIM_REPORT");
        auto x = torch::ones({4}).to(device());
        std::fprintf(stderr, "end\n");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "^end\n$");
}

TEST(SimDevice, TodeviceSimSelectsTheSimulator) {
  const char* old = std::getenv("TODEVICE");
  std::string saved = old ? old : "";
  setenv("TODEVICE", "sim", 1);
  torch::Device d = todevice::default_device();
  if (old)
    setenv("TODEVICE", saved.c_str(), 1);
  else
    unsetenv("TODEVICE");
  EXPECT_EQ(d, device());
  EXPECT_EQ(d, torch::Device(torch::kXPU, 0));
  EXPECT_EQ(todevice::sim::device_name(), "sim:0 (todevice_sim, on the XPU dispatch key)");
}

} // namespace
