// A unified diff of one file's edits, usable with `patch -p1` and `git apply`.
#pragma once

#include "clang/Tooling/Core/Replacement.h"

#include <string>

namespace to_device_migrate {

/// The unified diff (3 lines of context) turning `Code` into the result of
/// applying `Replaces`, with `a/Path` and `b/Path` headers. Empty if nothing
/// changes. Hunks come straight from the replacements: no diff algorithm is
/// needed when the edits are known.
std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Code,
                        const clang::tooling::Replacements &Replaces);

} // namespace to_device_migrate
