// Composite operators that take another path for a device than for the CPU,
// run whole on the CPU.
//
// at::lstm, at::gru and at::rnn_* take a faster path for CPU inputs only
// (RNN.cpp, FullLayer: the input projection of every time step in one matrix
// product instead of one per step); on the simulated device the per-step
// path's products round differently, and an Embedding + LSTM + Adam program
// drifts from the CPU in the last digit. The GRU cell takes a fused path for
// XPU tensors whose kernel exists for CUDA only. Likewise (an audit of ATen's
// composites that test the device, docs/simulator.md):
//  - adaptive_avg_pool2d/3d with output size 1 compute a mean on the CPU but
//    call _adaptive_avg_pool* for XPU tensors (LibTorch 1.13), other rounding
//    and another backward;
//  - group_norm keeps a channels-last input channels-last on the CPU only;
//  - scaled_dot_product_attention (2.x) asks a dispatch stub that has no XPU
//    entry in a CPU-only build: an internal assert on the device.
// So these run on the CPU: inputs are copied there through a differentiable
// copy, the CPU composite runs (recording its autograd graph as on the CPU),
// and the outputs are copied back, also differentiably. The copies are the
// simulator's own work: they are not counted as transfers.
#include "sim_internal.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/api/include/torch/version.h>
#include <torch/csrc/autograd/custom_function.h>

namespace todevice {
namespace sim {
namespace detail {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

at::Tensor uncounted_to_cpu(const at::Tensor& sim) {
  CpuAliases aliases;
  return aliases.alias(sim).clone(at::MemoryFormat::Preserve);
}

// A simulated tensor's copy on the CPU; its gradient goes back to the device.
struct SimToCpu : torch::autograd::Function<SimToCpu> {
  static at::Tensor forward(AutogradContext*, const at::Tensor& sim) {
    return uncounted_to_cpu(sim);
  }
  static variable_list backward(AutogradContext*, variable_list grads) {
    return {grads[0].defined() ? copy_to_new_sim(grads[0].contiguous()) : grads[0]};
  }
};

// A CPU result's copy on the device; its gradient comes back to the CPU.
struct CpuToSim : torch::autograd::Function<CpuToSim> {
  static at::Tensor forward(AutogradContext*, const at::Tensor& cpu) {
    return copy_to_new_sim(cpu.contiguous());
  }
  static variable_list backward(AutogradContext*, variable_list grads) {
    return {grads[0].defined() ? uncounted_to_cpu(grads[0]) : grads[0]};
  }
};

template <typename Convert>
c10::IValue convert_tensors(const c10::IValue& v, Convert convert) {
  if (v.isTensor())
    return v.toTensor().defined() ? c10::IValue(convert(v.toTensor())) : v;
  if (v.isTensorList()) {
    c10::List<at::Tensor> out;
    for (const at::Tensor& t : v.toTensorVector())
      out.push_back(t.defined() ? convert(t) : t);
    return c10::IValue(out);
  }
  return v;
}

void run_on_cpu(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const std::size_t nargs = op.schema().arguments().size();
  const std::size_t nret = op.schema().returns().size();
  for (std::size_t i = stack->size() - nargs; i < stack->size(); ++i)
    (*stack)[i] = convert_tensors((*stack)[i], [](const at::Tensor& t) {
      return is_sim(t) ? SimToCpu::apply(t) : t;
    });
  {
    FallbackScope simulators_own_work; // the device's call was counted already
    op.callBoxed(stack);
  }
  for (std::size_t i = stack->size() - nret; i < stack->size(); ++i)
    (*stack)[i] = convert_tensors((*stack)[i], [](const at::Tensor& t) {
      return t.device().is_cpu() ? CpuToSim::apply(t) : t;
    });
}

} // namespace

void register_cpu_path_operators(torch::Library& aten_xpu_or_autograd_xpu) {
  for (const char* name : {"lstm.input", "lstm.data", "gru.input", "gru.data", "rnn_tanh.input",
                           "rnn_tanh.data", "rnn_relu.input", "rnn_relu.data", "lstm_cell",
                           "gru_cell", "rnn_tanh_cell", "rnn_relu_cell", "adaptive_avg_pool2d",
                           "adaptive_avg_pool3d", "group_norm"})
    aten_xpu_or_autograd_xpu.impl(name, torch::CppFunction::makeFromBoxedFunction<&run_on_cpu>());
#if TORCH_VERSION_MAJOR >= 2
  aten_xpu_or_autograd_xpu.impl("scaled_dot_product_attention",
                                torch::CppFunction::makeFromBoxedFunction<&run_on_cpu>());
#endif
}

} // namespace detail
} // namespace sim
} // namespace todevice
