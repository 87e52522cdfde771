// todevice/registry.h: register the tensors, tensor lists, modules, optimizers
// and scalars of a program by reference, and move them all with one call.
//
//   todevice::Registry registry;
//   registry.add(todevice::named("model", model), optimizer, todevice::named("lr", lr), inputs);
//   auto moved = registry.to(device);             // rebinds the variables; returns what it did
//   std::cout << registry.audit(device);         // what is still elsewhere, by name
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <iosfwd>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace todevice {

/// What a registry entry refers to.
enum class Kind {
  Tensor,     ///< a `torch::Tensor` variable
  TensorList, ///< a `std::vector<torch::Tensor>` variable (its elements at to() time)
  Module,     ///< a `torch::nn::Module` (parameters, buffers and their gradients)
  Optimizer,  ///< a `torch::optim::Optimizer` (its parameter handles and per-parameter state)
  Scalar,     ///< a `double`, `float` or `int64_t` variable, mirrored as a 0-dim tensor
};

/// Lower-case name of `kind` for reports ("tensor", "tensor list", "module", ...).
const char* kind_name(Kind kind);

/// A registration with a name used in audit reports and error messages.
/// Create it with named(); pass it to Registry::add().
template <class T>
struct Named {
  std::string name; ///< shown in reports instead of the default "<kind>#<index>"
  T& object;        ///< the registered variable (held by reference)
};

/// Names a registration: `registry.add(todevice::named("encoder", encoder))`.
template <class T>
Named<T> named(std::string name, T& object) {
  return Named<T>{std::move(name), object};
}

/// What Registry::to() did. Every field counts work actually done, so
/// "nothing was copied" is `tensors == 0 && bytes == 0 && transfers == 0`.
struct MoveResult {
  torch::Device device{torch::kCPU}; ///< the target device
  std::size_t objects = 0;       ///< registered objects in which at least one tensor changed device
  std::size_t tensors = 0;       ///< distinct tensors (TensorImpls) given device data, gradients included
  std::size_t already_there = 0; ///< tensor references skipped because they were already on the device
  std::size_t bytes = 0;         ///< bytes copied
  std::size_t transfers = 0;     ///< copy operations issued: one per tensor, shared storage or bucket
};

/// Prints `moved 3 objects: 5 tensors, 1234 bytes in 2 transfers (1 already on meta)`.
std::ostream& operator<<(std::ostream& out, const MoveResult& result);

/// One registered tensor that is not on the expected device.
struct Finding {
  std::string object;    ///< the registration's name
  Kind kind;             ///< the registration's kind
  std::string tensor;    ///< which tensor inside it: "" for a plain tensor, "[2]", "fc.weight",
                         ///< "fc.weight.grad", "state[0x...].exp_avg", ...
  torch::Device device;  ///< where it actually is
};

/// The answer to "Expected all tensors to be on the same device": every
/// registered tensor that is not on `expected`.
struct AuditReport {
  torch::Device expected{torch::kCPU}; ///< the device that was asked about
  std::vector<Finding> findings;       ///< in registration order
  /// True when every registered tensor is on `expected`.
  bool ok() const { return findings.empty(); }
  /// Multi-line printable form, one finding per line, e.g.
  /// `module 'model' tensor 'fc.weight' is on cpu, expected meta`.
  std::string str() const;
};

/// Prints AuditReport::str().
std::ostream& operator<<(std::ostream& out, const AuditReport& report);

/// When Registry::to() coalesces small tensors into staging buckets.
enum class Coalesce {
  Auto,   ///< only for CPU -> CUDA transfers when CUDA is available (pinned staging)
  Always, ///< for every transfer from the CPU (unpinned staging without CUDA; used by tests)
  Never,  ///< one copy per tensor
};

/// Tuning of Registry::to() transfers.
struct TransferOptions {
  Coalesce coalesce = Coalesce::Auto;   ///< see Coalesce
  std::size_t bucket_bytes = 32u << 20; ///< capacity of one staging bucket
  std::size_t direct_bytes = 1u << 20;  ///< tensors of at least this many bytes are copied directly
};

/// Holds references to the tensors, tensor lists, modules, optimizers and
/// scalars of a program and moves them all to a device with one call.
///
/// The registry stores references: every registered variable must outlive the
/// registry (or the next clear()). Registering the same object twice is harmless.
///
/// Move semantics (see docs/runtime.md):
///  - tensor variables (plain, in lists, optimizer parameter handles and state,
///    scalar mirrors) are rebound like `t = t.to(device)`: the variable itself
///    refers to the device tensor afterwards. A leaf stays a leaf and keeps
///    `requires_grad`; a defined `.grad()` moves with it.
///  - module parameters and buffers are moved in place like Module::to (set_data),
///    so their TensorImpl -- and every handle to it, optimizers included -- is kept.
///  - tensors sharing a storage (views, tied weights) are moved once and stay
///    shared; a registered view of a registered tensor stays an autograd view of it.
///  - optimizer state is re-keyed when a parameter's TensorImpl changes, so
///    `optimizer.state()` always agrees with its parameters.
///  - nothing already on the target is copied.
///  - what can be predicted to fail (a module set_data cannot move, an unknown
///    optimizer state type) throws before anything moves; a copy that fails by
///    itself (out of memory) leaves what moved so far moved, like Module::to.
class Registry {
 public:
  /// True for the scalar types add() and scalar() accept: double, float, int64_t.
  template <class T>
  static constexpr bool is_scalar_type =
      std::is_same_v<T, double> || std::is_same_v<T, float> || std::is_same_v<T, std::int64_t>;

  /// An empty registry with default TransferOptions.
  Registry() = default;
  /// An empty registry with the given transfer tuning.
  explicit Registry(TransferOptions options) : options_(options) {}
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  /// Registries are movable (the registered references move with them).
  Registry(Registry&&) noexcept = default;
  /// Registries are movable (the registered references move with them).
  Registry& operator=(Registry&&) noexcept = default;
  ~Registry() = default;

  /// Registers each argument by reference. Accepted:
  ///  - `torch::Tensor&` and `std::vector<torch::Tensor>&` (non-const variables: they are rebound),
  ///  - modules: `std::shared_ptr<M>` with M derived from torch::nn::Module, any
  ///    `torch::nn::ModuleHolder<T>` (`torch::nn::Linear`, ...), or a `torch::nn::Module&`,
  ///  - `torch::optim::Optimizer&` (and derived),
  ///  - `double&`, `float&`, `int64_t&`: see scalar(),
  ///  - any of the above wrapped in named().
  /// Anything else is a compile-time error listing the supported types.
  template <class... Objects>
  Registry& add(Objects&&... objects) {
    (add_one(std::forward<Objects>(objects), std::string()), ...);
    return *this;
  }

  /// Moves everything registered to `device` (see the class comment).
  /// With `non_blocking`, CUDA copies from pinned memory are asynchronous.
  /// With TODEVICE_AUDIT=1 in the environment, each call then prints
  /// audit(device)'s count to stderr ("todevice: audit after to(cuda:0): 5
  /// registrations, 0 tensors elsewhere"), and a line per finding.
  /// Throws std::invalid_argument before touching anything when a module would
  /// have to move between devices LibTorch's set_data refuses (e.g. cpu <-> meta)
  /// or an optimizer has state of an unsupported type.
  MoveResult to(torch::Device device, bool non_blocking = false);

  /// Every registered tensor not on `device`, with names (nothing is moved).
  AuditReport audit(torch::Device device) const;

  /// The 0-dim tensor mirroring a registered scalar variable, like Python's
  /// `torch.tensor(value)`: dtype double/float/int64 after the C++ type, on the
  /// registry's device (the CPU until the first to()). The C++ variable is the
  /// source of truth: when it changed since the last call, a new tensor with the
  /// new value is made (never written in place, so graphs that saved the old
  /// tensor stay valid). Throws std::out_of_range if `variable` is not registered.
  /// Only for T = double, float, int64_t.
  template <class T, std::enable_if_t<is_scalar_type<T>, int> = 0>
  torch::Tensor scalar(const T& variable) {
    return scalar_at(&variable, std::string_view());
  }

  /// The mirror of the scalar registered as `named(name, ...)`.
  /// Throws std::out_of_range if there is none.
  torch::Tensor scalar(std::string_view name) { return scalar_at(nullptr, name); }

  /// The device of the last to(), or nullopt before the first one.
  c10::optional<torch::Device> device() const { return device_; }

  /// Number of registrations.
  std::size_t size() const { return entries_.size(); }

  /// Forgets every registration (the objects themselves are untouched).
  void clear();

  /// The transfer tuning; may be changed between calls to to().
  TransferOptions& options() { return options_; }

 private:

  template <class T> struct is_named : std::false_type {};
  template <class T> struct is_named<Named<T>> : std::true_type {};
  template <class T> struct is_shared_module : std::false_type {};
  template <class M>
  struct is_shared_module<std::shared_ptr<M>> : std::is_base_of<torch::nn::Module, M> {};
  template <class T, class = void> struct is_module_holder : std::false_type {};
  template <class T>
  struct is_module_holder<T, std::void_t<typename T::ContainedType>>
      : std::is_base_of<torch::nn::ModuleHolder<typename T::ContainedType>, T> {};
  template <class T> static constexpr bool always_false = false;

  /// A registration: `object` points to the user's variable (or ScalarSlot).
  /// 24 bytes: to() streams through all entries, so names live out of line.
  struct Entry {
    Kind kind;
    void* object;
    const std::string* name; // into names_; null: reports use "<kind>#<index>"
  };

  /// A registered scalar and its device mirror.
  struct ScalarSlot {
    const void* variable;
    c10::ScalarType type;
    std::uint64_t bits; // the variable's bytes when `tensor` was made
    torch::Tensor tensor;
  };

  class Mover; // Registry::to's phases (src/registry_move.cpp)

  template <class T>
  void add_one(T&& object, std::string name);
  void add_entry(Kind kind, void* object, std::string name);
  void add_scalar(const void* variable, c10::ScalarType type, std::string name);
  torch::Tensor scalar_at(const void* variable, std::string_view name);

  TransferOptions options_;
  std::vector<Entry> entries_;
  std::deque<ScalarSlot> scalars_; // deque: entries point into it
  std::deque<std::string> names_;  // deque: entries point into it
  c10::optional<torch::Device> device_;
};

template <class T>
void Registry::add_one(T&& object, std::string name) {
  using U = std::remove_cv_t<std::remove_reference_t<T>>;
  // Variables are rebound or mutated, so they must be non-const lvalues.
  constexpr bool variable = std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>;
  if constexpr (is_named<U>::value) {
    add_one(object.object, std::move(object.name));
  } else if constexpr (std::is_same_v<U, torch::Tensor>) {
    static_assert(variable, "todevice::Registry::add: pass a non-const torch::Tensor variable; it is rebound by to()");
    add_entry(Kind::Tensor, &object, std::move(name));
  } else if constexpr (std::is_same_v<U, std::vector<torch::Tensor>>) {
    static_assert(variable, "todevice::Registry::add: pass a non-const std::vector<torch::Tensor> variable");
    add_entry(Kind::TensorList, &object, std::move(name));
  } else if constexpr (is_scalar_type<U>) {
    static_assert(variable, "todevice::Registry::add: pass a non-const scalar variable (it is read on every scalar())");
    add_scalar(&object, c10::CppTypeToScalarType<U>::value, std::move(name));
  } else if constexpr (std::is_base_of_v<torch::optim::Optimizer, U>) {
    static_assert(variable, "todevice::Registry::add: pass a non-const optimizer");
    add_entry(Kind::Optimizer, static_cast<torch::optim::Optimizer*>(&object), std::move(name));
  } else if constexpr (std::is_base_of_v<torch::nn::Module, U>) {
    static_assert(variable, "todevice::Registry::add: pass a non-const module");
    add_entry(Kind::Module, static_cast<torch::nn::Module*>(&object), std::move(name));
  } else if constexpr (is_shared_module<U>::value || is_module_holder<U>::value) {
    torch::nn::Module* module = nullptr;
    if constexpr (is_shared_module<U>::value) {
      module = object.get();
    } else if (!object.is_empty()) {
      module = object.ptr().get();
    }
    if (module == nullptr)
      throw std::invalid_argument("todevice::Registry::add: empty module pointer" +
                                  (name.empty() ? std::string() : " '" + name + "'"));
    add_entry(Kind::Module, module, std::move(name));
  } else {
    static_assert(always_false<U>,
                  "todevice::Registry::add: unsupported type; supported: torch::Tensor&, "
                  "std::vector<torch::Tensor>&, modules (std::shared_ptr<M>, ModuleHolder, Module&), "
                  "torch::optim::Optimizer&, double&, float&, int64_t&, todevice::named(...)");
  }
}

} // namespace todevice
