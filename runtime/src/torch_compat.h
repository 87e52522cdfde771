// Internal: the LibTorch API differences between the versions the runtime
// builds with (1.13 to 2.14), in one place. Written with templates and
// overloads that fit every version, so no #if on TORCH_VERSION is needed.
#pragma once

#include <c10/core/Allocator.h>
#include <torch/optim/optimizer.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace todevice::compat {

template <class T, class = void>
struct has_use_libuv : std::false_type {};
template <class T>
struct has_use_libuv<T, std::void_t<decltype(std::declval<T&>().useLibUV)>> : std::true_type {};

/// What optimizers key per-parameter state by: the parameter's TensorImpl
/// address as text up to 2.1 (c10::guts::to_string, since removed), the
/// address itself (void*) after.
using OptimizerStateKey =
    typename std::decay_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;

template <class Key = OptimizerStateKey>
Key optimizer_state_key(const at::Tensor& t) {
  void* impl = t.unsafeGetTensorImpl();
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text; // what c10::guts::to_string did
    text << impl;
    return text.str();
  } else {
    return impl;
  }
}

/// A state key as text, for reports.
inline std::string describe(const OptimizerStateKey& key) {
  std::ostringstream text;
  text << key;
  return text.str();
}

/// TCPStore's options name its libuv backend (2.2), the default since 2.4;
/// a LibTorch built without libuv (Debian's) then refuses to start a store.
/// The classic backend, which every version has, is asked for where the
/// option exists.
template <class StoreOptions>
void use_classic_tcp_store(StoreOptions& options) {
  if constexpr (has_use_libuv<StoreOptions>::value)
    options.useLibUV = false;
}

/// A c10::Allocator written once. c10::Allocator::allocate lost its const and
/// copy_data became pure virtual (2.x): defining allocate both ways overrides
/// whichever this LibTorch declares (the other is a plain overload), and
/// copy_data is an override where it exists and unused where it does not.
class Allocator : public c10::Allocator {
 public:
  c10::DataPtr allocate(std::size_t nbytes) const { return allocate_bytes(nbytes); }
  c10::DataPtr allocate(std::size_t nbytes) { return allocate_bytes(nbytes); }
  void copy_data(void* dest, const void* src, std::size_t count) const { copy_bytes(dest, src, count); }

 protected:
  virtual c10::DataPtr allocate_bytes(std::size_t nbytes) const = 0;
  virtual void copy_bytes(void* dest, const void* src, std::size_t count) const = 0;
};

} // namespace todevice::compat
