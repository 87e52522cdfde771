// What migrating one file produced: the diagnostics the consumer accepted
// (FindingConsumer.h), each a clang::tooling::Diagnostic, what clang-tidy
// exports, with the position clang prints it at. --check, --export-fixes,
// --report, --comments and the rewritten text are functions over this list.
#pragma once

#include "diagnostics/EditSet.h"

#include "clang/Tooling/Core/Diagnostic.h"

#include <string>
#include <vector>

namespace to_device_migrate {

/// What a diagnostic is, from its level and whether it carries fixes.
enum class FindingKind {
  /// A site moved to the device (a warning with its fix): --check lists it.
  Rewrite,
  /// Code the rewritten sites need (the device declaration, an include, a
  /// registry's set-up; a remark with its fix), not a site of its own.
  SupportCode,
  /// Left for the user, printed as `warning:` (with --comments, its fix is a
  /// comment above the line).
  Warning,
  /// Left for the user, printed as `note:` (a remark without fix).
  Note,
  /// The file cannot be rewritten (two rules' edits conflict): nothing is written.
  Error,
};

struct Finding {
  /// The rule's name, message, file, offset and fixes, as --export-fixes writes them.
  clang::tooling::Diagnostic Diag;
  FindingKind Kind = FindingKind::Warning;
  /// Where clang prints it (presumed line and column of the expansion).
  unsigned Line = 0, Column = 0;
  /// The source line it is on, as written (printed under it, with a caret).
  std::string SourceLine;

  const std::string &rule() const { return Diag.DiagnosticName; }
  const std::string &message() const { return Diag.Message.Message; }
  const std::string &file() const { return Diag.Message.FilePath; }
  unsigned offset() const { return Diag.Message.FileOffset; }
  /// Its fixes in its own file, as edits named by its rule.
  std::vector<Edit> fixes() const;
  /// Names its file `Path` (made absolute), its fixes' too.
  void renameFile(const std::string &Path);

  bool isEdit() const { return Kind == FindingKind::Rewrite || Kind == FindingKind::SupportCode; }
  /// Printed as a warning (a rewrite --check lists, or a warning): what --check fails on.
  bool isWarning() const { return Kind == FindingKind::Rewrite || Kind == FindingKind::Warning; }
  /// "warning", "note" or "error", as printed.
  const char *severityName() const;
};

/// What migrating one file produced.
struct FileResult {
  std::string Path;
  std::string Original;
  /// In the order the consumer accepted them.
  std::vector<Finding> Findings;

  /// The fixes of every finding, to apply: the rules' edits in the order
  /// recorded, then the warnings' (--comments), so a comment goes after code
  /// inserted at the same point.
  EditSet edits() const;
  /// The finding that stops the file from being written, if any.
  const Finding *error() const;
  /// The findings by line and column, as a compiler lists its diagnostics
  /// (those at one place in the order they came).
  std::vector<const Finding *> inSourceOrder() const;
};

} // namespace to_device_migrate
