// What migrating one file produced: the diagnostics the consumer accepted
// (FindingConsumer.h), each a clang::tooling::Diagnostic, what clang-tidy
// exports, with the position clang prints it at, and their fixes merged into
// the file's one set of replacements. --check, --export-fixes, --report and
// --comments read the findings; the rewritten text is made from the
// replacements once (Formatting.h), and that text is compile-checked and written.
#pragma once

#include "clang/Tooling/Core/Diagnostic.h"

#include <optional>
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
};

struct Finding {
  /// The rule's name, message, file, offset and fixes, as --export-fixes writes them.
  clang::tooling::Diagnostic Diag;
  FindingKind Kind = FindingKind::Warning;
  /// Where clang prints it (presumed line and column of the expansion).
  unsigned Line = 0, Column = 0;

  const std::string &rule() const { return Diag.DiagnosticName; }
  const std::string &message() const { return Diag.Message.Message; }
  const std::string &file() const { return Diag.Message.FilePath; }
  unsigned offset() const { return Diag.Message.FileOffset; }
  /// Its fixes in its own file.
  const clang::tooling::Replacements *fixes() const;
  /// Names its file `Path` (made absolute), its fixes' too.
  void renameFile(const std::string &Path);

  bool isEdit() const { return Kind == FindingKind::Rewrite || Kind == FindingKind::SupportCode; }
  /// Printed as a warning (a rewrite --check lists, or a warning): what --check fails on.
  bool isWarning() const { return Kind == FindingKind::Rewrite || Kind == FindingKind::Warning; }
  /// "warning" or "note", as printed.
  const char *severityName() const;
};

/// `Replaces` with each replacement's file named `Path`.
clang::tooling::Replacements withPath(const clang::tooling::Replacements &Replaces,
                                      llvm::StringRef Path);

/// What migrating one file produced.
struct FileResult {
  std::string Path;
  std::string Original;
  /// In the order the consumer accepted them.
  std::vector<Finding> Findings;
  /// The fixes of every finding, merged in the order they were accepted
  /// (mergeEdit): the rules' edits, then the warnings' comments (--comments),
  /// so a comment goes after code inserted at the same point.
  clang::tooling::Replacements Edits;
  /// What is compile-checked and written: Edits cleaned up and formatted
  /// (settleRewrite in Formatting.h), and the text they make of Original.
  clang::tooling::Replacements Rewrite;
  std::string Migrated;

  /// The replacement of Edits that `Fix` would overlap (not an insertion at
  /// the same point, which joins it), if any.
  std::optional<clang::tooling::Replacement>
  overlappingEdit(const clang::tooling::Replacement &Fix) const;
  /// Merges `Fix` into Edits: an insertion where one is goes after it. `Fix`
  /// must not overlap an edit (overlappingEdit).
  void mergeEdit(const clang::tooling::Replacement &Fix);
  /// The finding whose fix `Edit` is (or was merged into), if any.
  const Finding *findingOf(const clang::tooling::Replacement &Edit) const;
  /// How many edits the rules made (support code included, comments not).
  size_t editCount() const;
  /// The findings by line and column, as a compiler lists its diagnostics
  /// (those at one place in the order they came).
  std::vector<const Finding *> inSourceOrder() const;
};

} // namespace to_device_migrate
