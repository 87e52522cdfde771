#include "diagnostics/EditSet.h"
#include "facts/SourceLines.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace to_device_migrate {

bool EditSet::add(unsigned Offset, unsigned Length, llvm::StringRef Text, llvm::StringRef Rule) {
  if (!Seen.emplace(Offset, Length, Text.str()).second)
    return false;
  Edits.push_back({Offset, Length, Text.str(), Rule.str()});
  return true;
}

std::vector<Edit> EditSet::merged() const {
  // Stable: insertions at one offset keep the order in which rules recorded them.
  std::vector<Edit> Sorted = Edits;
  std::stable_sort(Sorted.begin(), Sorted.end(), [](const Edit &A, const Edit &B) {
    if (A.Offset != B.Offset)
      return A.Offset < B.Offset;
    return A.Length < B.Length; // insertions before a replacement at the same point
  });
  std::vector<Edit> Merged;
  for (const Edit &E : Sorted) {
    if (!Merged.empty() && E.Length == 0 && Merged.back().Length == 0 &&
        E.Offset == Merged.back().Offset) {
      Merged.back().Text += E.Text;
      Merged.back().Rule += "+" + E.Rule;
      continue;
    }
    Merged.push_back(E);
  }
  return Merged;
}

std::optional<std::pair<Edit, Edit>> EditSet::conflict() const { return firstConflict(merged()); }

std::optional<std::pair<Edit, Edit>> EditSet::firstConflict(const std::vector<Edit> &Merged) {
  for (size_t I = 1; I < Merged.size(); ++I) {
    const Edit &Last = Merged[I - 1], &E = Merged[I];
    if (E.Offset < Last.Offset + Last.Length ||
        (E.Length > 0 && Last.Length > 0 && E.Offset == Last.Offset))
      return std::make_pair(Last, E);
  }
  return std::nullopt;
}

llvm::Expected<clang::tooling::Replacements>
EditSet::toReplacements(llvm::StringRef FilePath, llvm::StringRef Code) const {
  const std::vector<Edit> Merged = merged();
  if (auto Both = firstConflict(Merged)) {
    auto [Line, Column] = lineAndColumn(Code, Both->second.Offset);
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("{0}:{1}:{2}: error: conflicting edits from rules '{3}' and '{4}'; "
                      "file left unchanged",
                      FilePath, Line, Column, Both->first.Rule, Both->second.Rule)
            .str());
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
