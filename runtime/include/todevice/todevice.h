// todevice: choose a device once, register everything that must live on it,
// and move it all with one call.
//
//   torch::Device device = todevice::default_device();   // CUDA:0, else CPU; TODEVICE overrides
//
// See docs/runtime.md for the full guide.
#pragma once

#include <torch/torch.h>

#include <string>

namespace todevice {

/// The device a migrated program runs on: CUDA device 0 when CUDA is available,
/// otherwise the CPU. The environment variable TODEVICE overrides the choice
/// (`TODEVICE=cpu`, `TODEVICE=cuda`, `TODEVICE=cuda:1`, or a name registered with
/// register_named_device(), such as `sim` when todevice_sim is linked).
/// An invalid value throws std::invalid_argument naming TODEVICE and the value:
/// a typo must never silently fall back to the CPU.
torch::Device default_device();

/// Makes `device` selectable as `TODEVICE=<name>`. Optional backends call this
/// from a static initializer (the simulator registers "sim").
void register_named_device(const std::string& name, torch::Device device);

} // namespace todevice
