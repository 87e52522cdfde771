// default_device(): CUDA:0 or CPU, TODEVICE override, and a clear error for bad values.
#include "todevice/todevice.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace {

// Sets TODEVICE for one test and restores the previous value afterwards.
class ScopedEnv {
 public:
  explicit ScopedEnv(const char* value) {
    if (const char* old = std::getenv("TODEVICE"))
      old_ = old;
    if (value)
      setenv("TODEVICE", value, 1);
    else
      unsetenv("TODEVICE");
  }
  ~ScopedEnv() {
    if (old_)
      setenv("TODEVICE", old_->c_str(), 1);
    else
      unsetenv("TODEVICE");
  }

 private:
  std::optional<std::string> old_;
};

TEST(DefaultDevice, CudaZeroWhenAvailableElseCpu) {
  ScopedEnv env(nullptr);
  const torch::Device expected =
      torch::cuda::is_available() ? torch::Device(torch::kCUDA, 0) : torch::Device(torch::kCPU);
  EXPECT_EQ(todevice::default_device(), expected);
}

TEST(DefaultDevice, EmptyVariableMeansNoOverride) {
  ScopedEnv env("");
  EXPECT_EQ(todevice::default_device().type(),
            torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
}

TEST(DefaultDevice, EnvOverridesWithDeviceStrings) {
  {
    ScopedEnv env("cpu");
    EXPECT_EQ(todevice::default_device(), torch::Device(torch::kCPU));
  }
  {
    ScopedEnv env("cuda:1"); // parsing does not need a GPU
    EXPECT_EQ(todevice::default_device(), torch::Device(torch::kCUDA, 1));
  }
  {
    ScopedEnv env("meta");
    EXPECT_EQ(todevice::default_device(), torch::Device(torch::kMeta));
  }
}

TEST(DefaultDevice, EnvSelectsRegisteredName) {
  todevice::register_named_device("todevice-test-dev", torch::Device(torch::kMeta));
  ScopedEnv env("todevice-test-dev");
  EXPECT_EQ(todevice::default_device(), torch::Device(torch::kMeta));
}

TEST(DefaultDevice, InvalidValueIsAnErrorNamingVariableAndValue) {
  ScopedEnv env("gpu0");
  try {
    todevice::default_device();
    FAIL() << "TODEVICE=gpu0 must not fall back silently";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("TODEVICE"), std::string::npos) << message;
    EXPECT_NE(message.find("gpu0"), std::string::npos) << message;
  }
}

TEST(DefaultDevice, BadIndexIsAnError) {
  ScopedEnv env("cuda:x");
  EXPECT_THROW(todevice::default_device(), std::invalid_argument);
}

} // namespace
