// Switches the runtime reads from the environment, spelled one way:
// TODEVICE_AUDIT=1 (registry.h, distributed.h), TODEVICE_SIM_REPORT=1 (sim.h).
#pragma once

#include <cstdlib>
#include <cstring>

namespace todevice::detail {

/// True when the environment variable `name` is exactly "1".
inline bool switched_on(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::strcmp(value, "1") == 0;
}

} // namespace todevice::detail
