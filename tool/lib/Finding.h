// One stream of findings: every site the tool rewrote (with its edit), the code
// those sites need, and what it leaves to the user, each with its rule, message,
// location and fixes, as clang-tidy's diagnostics carry theirs. The --check
// printer, the --export-fixes YAML, the --report and the rewritten file all
// read this one list.
#pragma once

#include "EditSet.h"

#include <string>
#include <vector>

namespace to_device_migrate {

struct Finding {
  enum class Level {
    /// A site moved to the device: its fix is the rewrite (--check lists it).
    Rewrite,
    /// Code the rewritten sites need (the device declaration, an include, a
    /// registry's set-up), not a site of its own: --check does not list it.
    SupportCode,
    /// Left for the user, printed as `warning:` (with --comments, its fix is a
    /// comment above the line).
    Warning,
    /// Left for the user, printed as `note:`.
    Note,
  };
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  unsigned Offset = 0; ///< in File's text
  Level Severity = Level::Warning;
  std::string Message;
  std::string Rule;
  /// The source line the finding is on, as written (printed under it, with a caret).
  std::string SourceLine;
  /// The edits that resolve it, in File's text: for a rewrite or support code,
  /// exactly its one edit (at Offset).
  std::vector<Edit> Fixes;

  /// A rewrite or support code: what the tool did, not what it left.
  bool isEdit() const { return Severity == Level::Rewrite || Severity == Level::SupportCode; }
  /// Printed as a warning (a rewrite --check lists, or a warning): what --check fails on.
  bool isWarning() const { return Severity == Level::Rewrite || Severity == Level::Warning; }
  /// "warning" or "note", as printed.
  const char *severityName() const { return isWarning() ? "warning" : "note"; }
};

/// What migrating one file produced.
struct FileResult {
  std::string Path;
  std::string Original;
  /// In the order recorded.
  std::vector<Finding> Findings;

  /// True if some finding already has an edit making the same change.
  bool hasEdit(const Edit &E) const;
  /// The fixes of every finding, to apply: the rules' edits in the order
  /// recorded, then the warnings' (--comments), so a comment goes after code
  /// inserted at the same point, as when it was recorded last.
  EditSet edits() const;
};

} // namespace to_device_migrate
