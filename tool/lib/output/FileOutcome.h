// What happened to one input file: shared by the runner that produces it, the
// header selection that reads it (HeaderFiles.h) and the driver's outputs.
#pragma once

#include "diagnostics/Finding.h"

#include <optional>
#include <string>
#include <vector>

namespace to_device_migrate {

/// What happened to one input file.
struct FileOutcome {
  std::string Input;                ///< the path as given
  std::optional<FileResult> Result; ///< empty when the file did not parse
  std::string Diagnostics;          ///< clang's messages for this file, kept together
  std::string IncludedBy;           ///< for a header (--header-filter): the input including it
  /// Why the rewritten code would not compile (RewriteCheck.h), one line each:
  /// when not empty, nothing is written for this file.
  std::vector<std::string> CompileErrors;
  /// Why the edits could not be formatted (--format-style): nothing is written.
  std::string FormatError;
};

} // namespace to_device_migrate
