// The simulator as LibTorch 2.x's accelerator: XPU hooks that say one device
// is there.
//
// Why: from 2.x on, code that is not a kernel asks "which accelerator is
// present?" through the device type's hooks (at::getAccelerator: hasXPU()).
// LibTorch 2.14's autograd engine asks it for every gradient it accumulates on
// a device (at::accelerator::getCurrentStream), and a CPU-only LibTorch's XPU
// hooks answer "none", so backward() on the simulator failed there. LibTorch
// 1.13 has no such hooks and asks no such question: nothing is registered there.
#include "sim_internal.h"

#if __has_include(<ATen/detail/XPUHooksInterface.h>)
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/detail/XPUHooksInterface.h>

#include <cstdlib>
#include <cstring>
#include <memory>

namespace todevice::sim::detail {
namespace {

// Whether LibTorch should see the simulator as its accelerator. LibTorch 2.x
// refuses two at once (at::getAccelerator: "Cannot have both CUDA and XPU",
// asked by pin_memory, manual_seed, the autograd engine), and todevice_sim is
// linked into programs that also run on a real GPU: a migrated program built
// for CUDA runs there on cuda:0 when TODEVICE is unset. So the simulator is
// present where no CUDA device is, or where TODEVICE asks for it.
bool simulator_is_the_accelerator() {
  static const bool present = [] {
    const char* chosen = std::getenv("TODEVICE");
    if (chosen != nullptr && std::strncmp(chosen, "sim", 3) == 0)
      return true;
    return !at::hasCUDA();
  }();
  return present;
}

// 2.14 decides on isBuilt(), which its hooks interface declares and 2.6's does
// not: written without `override` (which 2.6 would refuse) in a class of their
// own, they override wherever the base declares them.
struct BuiltAndAvailable : at::XPUHooksInterface {
  bool isBuilt() const { return simulator_is_the_accelerator(); }
  bool isAvailable() const { return simulator_is_the_accelerator(); }
};

// What says "one XPU device, sim:0, ready" (where the simulator is the
// accelerator), and its generator; everything else
// (pinned memory, ...) keeps LibTorch's answer for a build without XPU.
struct SimXPUHooks final : BuiltAndAvailable {
  void init() const override {}
  bool hasXPU() const override { return simulator_is_the_accelerator(); }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
  c10::DeviceIndex deviceCount() const override { return simulator_is_the_accelerator() ? 1 : 0; }
  c10::DeviceIndex getNumGPUs() const override { return deviceCount(); }
  c10::DeviceIndex current_device() const override { return 0; }
  c10::DeviceIndex getCurrentDevice() const override { return 0; }
  void deviceSynchronize(c10::DeviceIndex) const override {} // the simulator is synchronous
  // Random numbers on the simulator are the CPU kernels' draws from the CPU's
  // generator, so that results match the CPU's bit for bit; seeding "the
  // accelerator" (at::manual_seed does, once one is present) seeds that one
  // again, with the same seed.
  const at::Generator& getDefaultGenerator(c10::DeviceIndex) const override {
    return at::detail::getDefaultCPUGenerator();
  }
  at::Generator getNewGenerator(c10::DeviceIndex) const override {
    return at::detail::createCPUGenerator();
  }
};

} // namespace

bool accelerator_hooks_taken() { return at::XPUHooksRegistry()->Has("XPUHooks"); }

void register_accelerator_hooks() {
  // The registry's creators take XPUHooksArgs in some 2.x versions and nothing
  // in others: a generic lambda is either.
  at::XPUHooksRegistry()->Register("XPUHooks", [](auto&&...) {
    return std::unique_ptr<at::XPUHooksInterface>(new SimXPUHooks());
  });
}

} // namespace todevice::sim::detail

#else // LibTorch 1.13

namespace todevice::sim::detail {
bool accelerator_hooks_taken() { return false; }
void register_accelerator_hooks() {}
} // namespace todevice::sim::detail

#endif
