// The one place where what the rules say becomes findings, as clang-tidy's
// ClangTidyDiagnosticConsumer is for its checks. A rule reports or edits only
// through Rule::diag() (`diag(Loc, Message) << Site << FixItHint`); every
// diagnostic of a file's run arrives here and the policy is decided once:
//   - keep-cpu: nothing is said or changed on a line marked
//     `// to-device: keep-cpu` (or after `// to-device: keep-cpu-next-line`),
//     support code aside;
//   - macros: a site or fix in a macro's argument is rewritten where the
//     argument is written; one in a macro's body is reported at the macro's
//     use instead (changing the body would change every use);
//   - files: fixes go to the file this run migrates; a site in another file
//     (a header --header-filter does not select) is left alone;
//   - duplicates: an edit already made (one template seen through two
//     instantiations, a declaration asked for twice) is kept once;
//   - conflicts: as clang-tidy does, a diagnostic whose fix overlaps a fix
//     accepted before keeps its place but loses its fix: it becomes a warning
//     saying which rule's edit it overlaps, so the site is placed by hand.
#pragma once

#include "diagnostics/Finding.h"
#include "compat/LlvmCompat.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"

#include <optional>
#include <set>
#include <string>
#include <tuple>

namespace to_device_migrate {

/// Whether `Loc` was written by a macro's body (not passed as its argument):
/// a macro argument is followed to where it is written.
bool isWrittenByMacroBody(const clang::SourceManager &SM, clang::SourceLocation Loc);

class FindingConsumer : public clang::DiagnosticConsumer {
public:
  /// Collects the findings of `File` (its text is `Original`, named `Path`).
  FindingConsumer(const clang::SourceManager &SM, const clang::LangOptions &LangOpts,
                  clang::FileID File, std::string Path, std::string Original);

  /// The rule whose diagnostic is being built. clang-tidy maps diagnostic IDs
  /// to check names; ours share one ID per level, and clang builds one
  /// diagnostic at a time.
  void setRule(llvm::StringRef Name) { Rule = Name.str(); }
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  /// The findings and their edits.
  FileResult takeResult();

private:
  bool isKeptOnCpu(const clang::Diagnostic &Info) const;
  bool isKeptOnCpuAt(unsigned Offset) const;
  /// Where the macro whose body holds a site or fix of `Info` is used, if one does.
  std::optional<clang::SourceLocation> macroBodyUse(const clang::Diagnostic &Info) const;
  /// True if every site and fix of `Info` is written in the file migrated.
  bool isInFile(const clang::Diagnostic &Info) const;
  void acceptEdits(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info,
                   llvm::StringRef Message);
  void accept(FindingKind Kind, clang::SourceLocation Loc, llvm::StringRef Message);
  /// The file offsets of a fix's range.
  std::pair<unsigned, unsigned> offsetsOf(const clang::CharSourceRange &Range) const;
  /// `Text` with the file's line endings (CRLF or LF).
  std::string withFileNewlines(llvm::StringRef Text) const;

  const clang::SourceManager &SM;
  const clang::LangOptions &LangOpts;
  clang::FileID File;
  FileResult Result;
  std::string Rule;
  /// Every edit accepted (offset, length, text): one made already is not made again.
  std::set<std::tuple<unsigned, unsigned, std::string>> Seen;
  std::set<std::pair<unsigned, std::string>> MacroUses;
};

/// What Rule::diag() reports into for one file: a DiagnosticsEngine of its
/// own over the parse's SourceManager, whose client is a FindingConsumer.
class FileDiagnostics {
public:
  FileDiagnostics(const clang::SourceManager &SM, const clang::LangOptions &LangOpts,
                  clang::FileID File, std::string Path, std::string Original);

  /// A diagnostic of `Rule` at `Loc`: a warning, or a note. Stream the site's
  /// range and the fixes into it.
  clang::DiagnosticBuilder diag(llvm::StringRef Rule, clang::SourceLocation Loc,
                                llvm::StringRef Message, clang::DiagnosticIDs::Level Level);
  FileResult finish() { return Consumer.takeResult(); }

private:
  FindingConsumer Consumer;
  compat::DiagnosticsOf Diagnostics;
};

} // namespace to_device_migrate
