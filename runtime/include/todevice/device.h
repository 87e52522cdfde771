// todevice/device.h: the device a migrated program runs on, chosen once.
//
//   torch::Device device = todevice::default_device();   // CUDA:0, else CPU; TODEVICE overrides
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
