// The boxed kernel run for every operator the simulator has no native kernel
// for (almost all of them): check placement like CUDA, then run the CPU kernel
// on CPU aliases of the device memory (sim_alias.cpp).
#include "sim_internal.h"

#include "todevice/sim.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace todevice {
namespace sim {
namespace detail {
namespace {

std::string op_name(const c10::FunctionSchema& schema) {
  return schema.overload_name().empty() ? schema.name()
                                        : schema.name() + "." + schema.overload_name();
}

// Operators allowed to mix devices, as on CUDA: copies are how data moves
// between devices, and advanced indexing accepts CPU index tensors.
bool mixing_allowed(const std::string& op, const std::string& arg) {
  if (op == "aten::_copy_from" || op == "aten::_copy_from_and_resize" || op == "aten::copy_" ||
      op == "aten::_to_copy" || op == "aten::to")
    return true;
  return arg == "indices" && (op == "aten::index" || op == "aten::index_put_" ||
                              op == "aten::index_put" || op == "aten::_index_put_impl_");
}

template <typename F>
void for_each_tensor(const c10::IValue& v, F&& f) {
  if (v.isTensor()) {
    f(v.toTensor());
  } else if (v.isTensorList()) {
    for (const at::Tensor& t : v.toTensorVector())
      f(t);
  } else if (v.isList()) { // Tensor?[] (e.g. index's indices)
    for (const c10::IValue& e : v.toListRef())
      if (e.isTensor())
        f(e.toTensor());
  }
}

/// The first argument of `schema` holding a simulated tensor ("" if none).
std::string first_sim_argument(const c10::FunctionSchema& schema, const torch::jit::Stack& stack,
                               std::size_t first) {
  const auto& args = schema.arguments();
  for (std::size_t i = 0; i < args.size(); ++i) {
    bool sim = false;
    for_each_tensor(stack[first + i], [&](const at::Tensor& t) { sim = sim || is_sim(t); });
    if (sim)
      return args[i].name();
  }
  return "";
}

/// Says on stderr where the program made the mixed call, once per place
/// (a program that catches the error and goes on is told once), and returns
/// the place for the error message: " at train.cpp:42 in train_step",
/// " in train_step" (no debug info), or "" when unknown.
std::string report_placement_error(const std::string& argument, const std::string& op,
                                   const std::string& sim_argument) {
  const std::string site = program_site();
  const std::string where = site.empty() ? "" : (site.rfind("in ", 0) == 0 ? " " : " at ") + site;
  static std::mutex lock;
  static std::set<std::string> reported;
  std::lock_guard<std::mutex> guard(lock);
  if (reported.insert(site + "|" + op + "|" + argument).second)
    std::fprintf(stderr, "todevice_sim: placement error%s: argument '%s' of %s is on cpu, '%s' on sim:0\n",
                 where.c_str(), argument.c_str(), op.c_str(), sim_argument.c_str());
  return where;
}

// CUDA's rule: every tensor argument on the device, except 0-dim CPU tensors,
// which kernels read as scalars. The error names the program's own line.
void check_placement(const c10::FunctionSchema& schema, const torch::jit::Stack& stack,
                     std::size_t first) {
  const auto& args = schema.arguments();
  const std::string sim_argument = first_sim_argument(schema, stack, first);
  if (sim_argument.empty())
    return;
  const std::string op = op_name(schema);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& name = args[i].name();
    for_each_tensor(stack[first + i], [&](const at::Tensor& t) {
      if (!t.defined() || !t.device().is_cpu() || t.dim() == 0 || mixing_allowed(schema.name(), name))
        return;
      const std::string where = report_placement_error(name, op, sim_argument);
      TORCH_CHECK(false, "Expected all tensors to be on the same device, but found at least "
                         "two devices, ", device_name(), " and cpu! (when checking argument '",
                  name, "' of ", op, ")", where);
    });
  }
}

/// Applies `fn` to every tensor of `v` (a tensor, a tensor list, or a list
/// holding tensors); nullopt when `v` holds none of those.
template <typename Fn>
c10::optional<c10::IValue> map_tensors(const c10::IValue& v, Fn fn) {
  if (v.isTensor())
    return c10::IValue(fn(v.toTensor()));
  if (v.isTensorList()) {
    c10::List<at::Tensor> out;
    for (const at::Tensor& t : v.toTensorVector())
      out.push_back(fn(t));
    return c10::IValue(out);
  }
  if (v.isList()) {
    c10::impl::GenericList out(v.toList().elementType());
    for (const c10::IValue& e : v.toListRef())
      out.push_back(e.isTensor() ? c10::IValue(fn(e.toTensor())) : e);
    return c10::IValue(out);
  }
  return c10::nullopt;
}

c10::IValue to_cpu(CpuAliases& aliases, const c10::IValue& v) {
  if (auto mapped = map_tensors(v, [&](const at::Tensor& t) { return aliases.alias(t); }))
    return *mapped;
  if (v.isStorage())
    return aliases.alias(v.toStorage());
  if (v.isDevice() && v.toDevice().type() == kSimType) // factory functions
    return c10::Device(c10::kCPU);
  return v;
}

c10::IValue to_sim(CpuAliases& aliases, const c10::IValue& v) {
  if (auto mapped = map_tensors(v, [&](const at::Tensor& t) { return aliases.result(t); }))
    return *mapped;
  return v;
}

void sim_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const c10::FunctionSchema& schema = op.schema();
  const std::size_t nargs = schema.arguments().size();
  const std::size_t first = stack->size() - nargs;
  check_placement(schema, *stack, first);

  FallbackScope simulators_own_work;
  CpuAliases aliases;
  for (std::size_t i = first; i < stack->size(); ++i)
    (*stack)[i] = to_cpu(aliases, (*stack)[i]);
  // Straight to the CPU kernel: autograd, conjugation etc. were handled by the
  // dispatcher before it reached the simulator's key.
  op.redispatchBoxed(c10::DispatchKeySet(c10::DispatchKey::CPU), stack);
  aliases.write_back();

  const std::size_t nret = schema.returns().size();
  for (std::size_t i = stack->size() - nret; i < stack->size(); ++i)
    (*stack)[i] = to_sim(aliases, (*stack)[i]);
}

} // namespace

void register_fallback(torch::Library& all_xpu, torch::Library& aten_xpu) {
  all_xpu.fallback(torch::CppFunction::makeFromBoxedFunction<&sim_fallback>());
  // A composite kernel (CompositeExplicitAutograd[NonFunctional]) takes
  // precedence over a backend fallback. When the CPU has its own kernel for the
  // operator, the composite one computes something else on our device:
  //  - structured operators (add, mm, ...): it allocates on the device and calls
  //    the out= variant, so errors would name aten::mm.out, not aten::mm;
  //  - native_layer_norm, native_group_norm, ...: a generic "math" version with
  //    other rounding than the CPU kernel;
  // so the fallback is registered for those operators, to run the CPU kernel.
  // The convolution entry points have no CPU kernel but composite kernels that
  // pick an implementation by backend (convolution_overrideable for an unknown
  // one): they too run whole on the CPU.
  for (const char* name : {"convolution", "_convolution", "convolution_backward"})
    aten_xpu.impl(name, torch::CppFunction::makeFromBoxedFunction<&sim_fallback>());
  auto& dispatcher = c10::Dispatcher::singleton();
  for (const c10::OperatorName& name : dispatcher.getAllOpNames()) {
    if (name.name.rfind("aten::", 0) != 0)
      continue;
    auto op = dispatcher.findOp(name);
    if (!op || !op->hasKernelForDispatchKey(c10::DispatchKey::CPU) ||
        op->hasKernelForDispatchKey(kSimKey) || mixing_allowed(name.name, ""))
      continue; // no CPU kernel to run, a native one, or a copy (needs _copy_from)
    // A CompositeImplicitAutograd kernel beside the CPU's (mish_backward's
    // math_mish_backward) wins over the fallback in the same way and computes
    // with other operators; on the XPU key alone, AutogradXPU then works as
    // AutogradCPU does.
    if (op->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutogradNonFunctional) ||
        op->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutograd) ||
        op->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd)) {
      std::string short_name = name.name.substr(6);
      if (!name.overload_name.empty())
        short_name += "." + name.overload_name;
      aten_xpu.impl(short_name.c_str(), torch::CppFunction::makeFromBoxedFunction<&sim_fallback>());
    }
  }
}

} // namespace detail
} // namespace sim
} // namespace todevice
