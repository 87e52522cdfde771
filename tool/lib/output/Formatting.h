// --format-style: the lines the tool changed are formatted as the project
// formats its code (clang-format's styles; `file`, the default, reads the
// .clang-format above the file), nothing else, as clang-tidy formats its
// fixes. With no .clang-format (or `none`) the edits stay exactly as the
// rules wrote them.
#pragma once

#include "diagnostics/Finding.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

namespace to_device_migrate {

/// The replacements that rewrite `Result`: its findings' fixes merged
/// (conflicts are an error), then cleaned up and formatted around each change
/// in `Style` (a clang-format style name, `file`, or `{key: value, ...}`).
llvm::Expected<clang::tooling::Replacements> rewriteOf(const FileResult &Result,
                                                       llvm::StringRef Style);

} // namespace to_device_migrate
