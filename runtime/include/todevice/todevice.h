// todevice: choose a device once, register everything that must live on it,
// and move it all with one call.
//
//   torch::Device device = todevice::default_device();   // CUDA:0, else CPU; TODEVICE overrides
//   todevice::Registry registry;
//   registry.add(todevice::named("model", model), optimizer, todevice::named("lr", lr), inputs);
//   auto moved = registry.to(device);             // rebinds the variables; returns what it did
//   std::cout << registry.audit(device);         // what is still elsewhere, by name
//   for (auto& batch : todevice::on_device(*loader, device)) { ... }
//
// See docs/runtime.md for the full guide.
#pragma once

#include "todevice/device.h"   // default_device(), register_named_device()
#include "todevice/loader.h"   // on_device(), move_batch()
#include "todevice/registry.h" // Registry, named(), MoveResult, AuditReport
