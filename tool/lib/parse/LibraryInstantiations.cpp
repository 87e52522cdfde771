#include "parse/LibraryInstantiations.h"

#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Sema/Sema.h>

#include <algorithm>

namespace to_device_migrate {

void LibraryInstantiations::drop(clang::Sema &S) {
  const clang::SourceManager &SM = S.getSourceManager();
  // An instantiation carries its template's location: where its body is.
  auto DropIfLibrary = [&](const clang::Sema::PendingImplicitInstantiation &Pending) {
    if (!SM.isInSystemHeader(SM.getExpansionLoc(Pending.first->getLocation())) ||
        (Keep && Keep(Pending.second)))
      return false;
    Dropped.insert(Pending.first->getCanonicalDecl());
    return true;
  };
  auto &Pending = S.PendingInstantiations;
  Pending.erase(std::remove_if(Pending.begin(), Pending.end(), DropIfLibrary), Pending.end());
  // Nor are they "used but not defined" (an error for a function whose type
  // has no linkage, `std::async<lambda>`; a warning for an inline one).
  if (!Dropped.empty())
    S.UndefinedButUsed.remove_if(
        [&](const auto &Used) { return Dropped.count(Used.first->getCanonicalDecl()); });
}

} // namespace to_device_migrate
