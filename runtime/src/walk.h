// Internal: every tensor handle a registry entry reaches (Registry::to and
// Registry::audit walk the same way).
#pragma once

#include "todevice/registry.h"
#include "torch_compat.h"

#include <deque>
#include <stdexcept>
#include <string>

namespace todevice::detail {

/// An entry's name in reports: its registered name, else "<kind>#<index>".
inline std::string entry_name(const std::string* name, Kind kind, std::size_t index) {
  return name == nullptr ? std::string(kind_name(kind)) + "#" + std::to_string(index) : *name;
}

// Calls visit(tensor&, in_place, optimizer_param, describe) for every tensor handle
// reachable from `object`. Module tensors are copies kept in `scratch`: they share
// the module's TensorImpl, which is what set_data needs. describe() is only called
// by audit(), so the walk costs no string building in to().
template <class Visit>
inline void walk(Kind kind, void* object, std::deque<torch::Tensor>& scratch, Visit&& visit) {
  const auto none = [] { return std::string(); };
  switch (kind) {
  case Kind::Tensor:
  case Kind::Scalar: // a scalar entry points to its mirror tensor
    visit(*static_cast<torch::Tensor*>(object), false, false, none);
    return;
  case Kind::TensorList: {
    auto& list = *static_cast<std::vector<torch::Tensor>*>(object);
    for (std::size_t i = 0; i < list.size(); ++i)
      visit(list[i], false, false, [i] { return "[" + std::to_string(i) + "]"; });
    return;
  }
  case Kind::Module: {
    auto& module = *static_cast<torch::nn::Module*>(object);
    for (const auto& item : module.named_parameters(/*recurse=*/true)) {
      scratch.push_back(item.value());
      visit(scratch.back(), true, false, [name = item.key()] { return name; });
    }
    for (const auto& item : module.named_buffers(/*recurse=*/true)) {
      scratch.push_back(item.value());
      visit(scratch.back(), true, false, [name = item.key()] { return name; });
    }
    return;
  }
  case Kind::Optimizer: {
    auto& optimizer = *static_cast<torch::optim::Optimizer*>(object);
    auto& groups = optimizer.param_groups();
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (std::size_t i = 0; i < groups[g].params().size(); ++i)
        visit(groups[g].params()[i], false, true, [g, i] {
          return "param_groups[" + std::to_string(g) + "].params[" + std::to_string(i) + "]";
        });
    for (auto& [key, state] : optimizer.state()) {
      auto field = [&, k = key](torch::Tensor& t, const char* what) {
        visit(t, false, false, [k, what] { return "state[" + compat::describe(k) + "]." + what; });
      };
      namespace o = torch::optim;
      if (auto* s = dynamic_cast<o::SGDParamState*>(state.get())) {
        field(s->momentum_buffer(), "momentum_buffer");
      } else if (auto* s = dynamic_cast<o::AdamParamState*>(state.get())) {
        field(s->exp_avg(), "exp_avg"), field(s->exp_avg_sq(), "exp_avg_sq");
        field(s->max_exp_avg_sq(), "max_exp_avg_sq");
      } else if (auto* s = dynamic_cast<o::AdamWParamState*>(state.get())) {
        field(s->exp_avg(), "exp_avg"), field(s->exp_avg_sq(), "exp_avg_sq");
        field(s->max_exp_avg_sq(), "max_exp_avg_sq");
      } else if (auto* s = dynamic_cast<o::AdagradParamState*>(state.get())) {
        field(s->sum(), "sum");
      } else if (auto* s = dynamic_cast<o::RMSpropParamState*>(state.get())) {
        field(s->square_avg(), "square_avg"), field(s->momentum_buffer(), "momentum_buffer");
        field(s->grad_avg(), "grad_avg");
      } else if (auto* s = dynamic_cast<o::LBFGSParamState*>(state.get())) {
        field(s->d(), "d"), field(s->H_diag(), "H_diag"), field(s->prev_flat_grad(), "prev_flat_grad");
        for (auto* dq : {&s->old_dirs(), &s->old_stps(), &s->ro()})
          for (auto& t : *dq) field(t, "history");
        if (s->al())
          for (auto& t : *s->al()) field(t, "al");
      } else {
        throw std::invalid_argument("todevice: optimizer state of an unsupported type (supported: SGD, "
                                    "Adam, AdamW, Adagrad, RMSprop, LBFGS)");
      }
    }
    return;
  }
  }
}

} // namespace todevice::detail
