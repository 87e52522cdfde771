// --format-style: the lines the tool changed are formatted as the project
// formats its code (clang-format's styles; `file`, the default, reads the
// .clang-format above the file), nothing else, as clang-tidy formats its
// fixes. With no .clang-format (or `none`) the edits stay exactly as the
// rules wrote them.
#pragma once

#include "diagnostics/Finding.h"

#include "llvm/Support/Error.h"

namespace to_device_migrate {

/// Makes what `Result` will be, once: its edits cleaned up and formatted
/// around each change in `Style` (a clang-format style name, `file`, or
/// `{key: value, ...}`) into Result.Rewrite, applied to its original text
/// into Result.Migrated. The compile check and the writer both read these.
llvm::Error settleRewrite(FileResult &Result, llvm::StringRef Style);

} // namespace to_device_migrate
