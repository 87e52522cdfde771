// What both builds of todevice::distributed (with c10d, distributed.cpp, and
// single-process only, distributed_single.cpp) read from the environment.
#pragma once

#include <chrono>
#include <string>

namespace todevice {
namespace distributed {
namespace detail {

/// The variable `name` as an integer, or `fallback` when it is not set.
/// Throws std::invalid_argument naming the variable when it is not a number.
int integer_variable(const char* name, int fallback);

/// TODEVICE_DIST_TIMEOUT (seconds), else 300 s.
std::chrono::milliseconds default_timeout();

/// The first line of `text` (c10d's messages carry backtraces after it).
std::string first_line(const std::string& text);

/// Whether each process of this machine can have a GPU of its own
/// (LOCAL_WORLD_SIZE, else WORLD_SIZE, at most the number of CUDA devices):
/// NCCL refuses two ranks of one communicator on the same GPU.
bool one_gpu_per_process();

} // namespace detail
} // namespace distributed
} // namespace todevice
