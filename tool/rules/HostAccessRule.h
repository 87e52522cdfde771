// host-access: host code reading a tensor's memory needs a CPU tensor.
//   float *p = t.data_ptr<float>();       auto t_host = t.cpu();
//                                    ->   float *p = t_host.data_ptr<float>();
//   auto acc = t.accessor<float, 2>();    (likewise; the copy lives as long as
//                                          the pointer or accessor that uses it)
// A WRITE through data_ptr/accessor (`acc[i][j] = v`, `*p = v`, `p[i] += v`,
// memcpy/memset/std::fill into it, or passing the pointer on) cannot be fixed
// with .cpu() — it would write a copy — so it is reported, not rewritten:
//   file:line:col: warning: ... [host-access]
// item<T>() and printing work on any device and are not touched.
#pragma once

#include "engine/Rule.h"

#include <map>
#include <string>

namespace to_device_migrate {

class HostAccessRule : public Rule {
public:
  using Rule::Rule;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;

private:
  /// Reads through `Access` from a host copy of `Reference` (a tensor named
  /// `Name`, the local `Local` if it is one) made before its statement;
  /// reports a write, or a site no statement holds, instead.
  void readThroughHostCopy(const clang::CXXMemberCallExpr &Access, const clang::Expr &Reference,
                           llvm::StringRef Name, const clang::VarDecl *Local);

  /// The host copy of each tensor read in a statement, by the statement's
  /// offset (the same in every instantiation of a template) and the tensor's name.
  std::map<std::pair<unsigned, std::string>, std::string> HostCopies;
};

} // namespace to_device_migrate
