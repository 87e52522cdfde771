#include "diagnostics/Finding.h"

#include <algorithm>

namespace to_device_migrate {

using clang::tooling::Replacement;
using clang::tooling::Replacements;

const Replacements *Finding::fixes() const {
  auto Own = Diag.Message.Fix.find(file());
  return Own == Diag.Message.Fix.end() ? nullptr : &Own->second;
}

Replacements withPath(const Replacements &Replaces, llvm::StringRef Path) {
  Replacements Renamed;
  for (const Replacement &R : Replaces)
    llvm::consumeError(
        Renamed.add(Replacement(Path, R.getOffset(), R.getLength(), R.getReplacementText())));
  return Renamed;
}

void Finding::renameFile(const std::string &Path) {
  Replacements Renamed;
  if (const Replacements *Own = fixes())
    Renamed = withPath(*Own, Path);
  Diag.Message.Fix.clear();
  if (!Renamed.empty())
    Diag.Message.Fix[Path] = std::move(Renamed);
  Diag.Message.FilePath = Path;
}

const char *Finding::severityName() const { return isWarning() ? "warning" : "note"; }

/// Whether two edits of one text overlap: they share a character, or both
/// replace text starting at one point. An insertion at the start or end of
/// another edit does not overlap it.
static bool overlap(const Replacement &A, const Replacement &B) {
  const unsigned AEnd = A.getOffset() + A.getLength(), BEnd = B.getOffset() + B.getLength();
  if (A.getLength() == 0 || B.getLength() == 0)
    return (A.getOffset() > B.getOffset() && A.getOffset() < BEnd) ||
           (B.getOffset() > A.getOffset() && B.getOffset() < AEnd);
  return A.getOffset() < BEnd && B.getOffset() < AEnd;
}

std::optional<Replacement> FileResult::overlappingEdit(const Replacement &Fix) const {
  for (const Replacement &Edit : Edits)
    if (overlap(Edit, Fix) && Edit != Fix)
      return Edit;
  return std::nullopt;
}

void FileResult::mergeEdit(const Replacement &Fix) {
  llvm::Error Err = Edits.add(Fix);
  if (!Err)
    return;
  // An insertion where one is already: Replacements refuses the two as
  // order-dependent. The new text goes after the text there, as the rules
  // recorded them (clang-tidy resolves it the same way).
  llvm::consumeError(std::move(Err));
  Replacements Joined;
  for (const Replacement &Edit : Edits) {
    const bool Before = Edit.getLength() == 0 && Edit.getOffset() == Fix.getOffset();
    llvm::consumeError(Joined.add(
        Before ? Replacement(Edit.getFilePath(), Edit.getOffset(), 0,
                             (Edit.getReplacementText() + Fix.getReplacementText()).str())
               : Edit));
  }
  Edits = std::move(Joined);
}

const Finding *FileResult::findingOf(const Replacement &Edit) const {
  for (const Finding &F : Findings)
    if (const Replacements *Fixes = F.isEdit() ? F.fixes() : nullptr)
      for (const Replacement &Fix : *Fixes)
        if (Fix == Edit || overlap(Fix, Edit) ||
            (Fix.getLength() == 0 && Edit.getLength() == 0 && Fix.getOffset() == Edit.getOffset()))
          return &F;
  return nullptr;
}

size_t FileResult::editCount() const {
  size_t Count = 0;
  for (const Finding &F : Findings)
    if (const Replacements *Fixes = F.isEdit() && F.file() == Path ? F.fixes() : nullptr)
      Count += Fixes->size();
  return Count;
}

std::vector<const Finding *> FileResult::inSourceOrder() const {
  std::vector<const Finding *> Sorted;
  for (const Finding &F : Findings)
    Sorted.push_back(&F);
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const Finding *A, const Finding *B) {
    return std::make_pair(A->Line, A->Column) < std::make_pair(B->Line, B->Column);
  });
  return Sorted;
}

} // namespace to_device_migrate
