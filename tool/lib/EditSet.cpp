#include "EditSet.h"
#include "SourceLines.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace to_device_migrate {
void EditSet::add(unsigned Offset, unsigned Length, llvm::StringRef Text, llvm::StringRef Rule) {
  Edit New{Offset, Length, Text.str(), Rule.str()};
  for (const Edit &Existing : Edits)
    if (Existing.sameChange(New))
      return;
  Edits.push_back(std::move(New));
}

llvm::Expected<clang::tooling::Replacements>
EditSet::toReplacements(llvm::StringRef FilePath, llvm::StringRef Code) const {
  // Stable: insertions at one offset keep the order in which rules recorded them.
  std::vector<Edit> Sorted = Edits;
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const Edit &A, const Edit &B) {
    if (A.Offset != B.Offset)
      return A.Offset < B.Offset;
    return A.Length < B.Length; // insertions before a replacement at the same point
  });

  std::vector<Edit> Merged;
  for (const Edit &E : Sorted) {
    if (!Merged.empty()) {
      Edit &Last = Merged.back();
      if (E.Length == 0 && Last.Length == 0 && E.Offset == Last.Offset) {
        Last.Text += E.Text;
        Last.Rule += "+" + E.Rule;
        continue;
      }
      bool Overlaps = E.Offset < Last.Offset + Last.Length ||
                      (E.Length > 0 && Last.Length > 0 && E.Offset == Last.Offset);
      if (Overlaps)
        return llvm::createStringError(
            llvm::inconvertibleErrorCode(),
            llvm::formatv("{0}:{1}:{2}: error: conflicting edits from rules '{3}' and '{4}'; "
                          "file left unchanged",
                          FilePath, lineAndColumn(Code, E.Offset).first,
                          lineAndColumn(Code, E.Offset).second, Last.Rule, E.Rule)
                .str());
    }
    Merged.push_back(E);
  }

  clang::tooling::Replacements Result;
  for (const Edit &E : Merged)
    if (llvm::Error Err =
            Result.add(clang::tooling::Replacement(FilePath, E.Offset, E.Length, E.Text)))
      return std::move(Err);
  return Result;
}

llvm::Expected<std::string> EditSet::apply(llvm::StringRef FilePath, llvm::StringRef Code) const {
  llvm::Expected<clang::tooling::Replacements> Replaces = toReplacements(FilePath, Code);
  if (!Replaces)
    return Replaces.takeError();
  return clang::tooling::applyAllReplacements(Code, *Replaces);
}

} // namespace to_device_migrate
