// The one set of edits every rule records into, and the one place that turns
// them into a rewritten file.
//
// Rules never touch text themselves: they record edits here. Identical edits
// (one template rewritten once, or the same declaration asked for twice) are
// kept once; insertions at the same point are kept in the order recorded; any
// other overlap is refused with an error naming both rules, never dropped.
#pragma once

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace to_device_migrate {

struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0; ///< 0 for an insertion
  std::string Text;
  std::string Rule;    ///< which rule asked for it, for conflict messages

  /// The same change (whichever rule asked for it).
  bool sameChange(const Edit &Other) const {
    return Offset == Other.Offset && Length == Other.Length && Text == Other.Text;
  }
};

class EditSet {
public:
  void add(unsigned Offset, unsigned Length, llvm::StringRef Text, llvm::StringRef Rule);
  void add(const Edit &E) { add(E.Offset, E.Length, E.Text, E.Rule); }
  bool empty() const { return Edits.empty(); }
  const std::vector<Edit> &edits() const { return Edits; }
  size_t size() const { return Edits.size(); }

  /// Merges the edits into replacements for `FilePath`; an overlap between two
  /// different edits is an error describing both (with line:col from `Code`).
  llvm::Expected<clang::tooling::Replacements> toReplacements(llvm::StringRef FilePath,
                                                              llvm::StringRef Code) const;

  /// Applies the edits to `Code` (the file's original text).
  llvm::Expected<std::string> apply(llvm::StringRef FilePath, llvm::StringRef Code) const;

private:
  std::vector<Edit> Edits;
};

} // namespace to_device_migrate
