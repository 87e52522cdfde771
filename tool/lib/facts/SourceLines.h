// Lines of a source text by offset or number: the one helper the engine, the
// printers and the keep-cpu check share (1-based lines and columns, as clang's).
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>

namespace to_device_migrate {

/// The 1-based line and column of `Offset` in `Code`.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef Code, unsigned Offset);

/// Offset of the first character of 1-based line `Line` (Code.size() past the end).
size_t lineStart(llvm::StringRef Code, unsigned Line);

/// The line holding `Offset`, without its line break (`\n` or `\r\n`).
llvm::StringRef lineAt(llvm::StringRef Code, size_t Offset);

/// The line before the one holding `Offset`; empty on the first line.
llvm::StringRef lineBefore(llvm::StringRef Code, size_t Offset);

} // namespace to_device_migrate
