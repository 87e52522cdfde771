// The fixes of one file's findings merged into replacements: identical edits
// are kept once; insertions at the same point are kept in the order recorded;
// any other overlap is a conflict naming both rules (the consumer turns it
// into an error finding: the file is not written), never dropped.
#pragma once

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace to_device_migrate {

struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0; ///< 0 for an insertion
  std::string Text;
  std::string Rule;    ///< which rule asked for it, for conflict messages
};

class EditSet {
public:
  /// Adds an edit; false if the set has the same change already (whichever
  /// rule asked for it), which is then not added again.
  bool add(unsigned Offset, unsigned Length, llvm::StringRef Text, llvm::StringRef Rule);
  bool add(const Edit &E) { return add(E.Offset, E.Length, E.Text, E.Rule); }
  bool empty() const { return Edits.empty(); }
  const std::vector<Edit> &edits() const { return Edits; }
  size_t size() const { return Edits.size(); }

  /// The first two edits that overlap (not two insertions at one point), if any.
  std::optional<std::pair<Edit, Edit>> conflict() const;

  /// Merges the edits into replacements for `FilePath`; an overlap between two
  /// different edits is an error describing both (with line:col from `Code`).
  llvm::Expected<clang::tooling::Replacements> toReplacements(llvm::StringRef FilePath,
                                                              llvm::StringRef Code) const;

  /// Applies the edits to `Code` (the file's original text).
  llvm::Expected<std::string> apply(llvm::StringRef FilePath, llvm::StringRef Code) const;

private:
  /// The edits sorted by place; insertions at one point joined in the order recorded.
  std::vector<Edit> merged() const;
  /// The first two of `Merged` that overlap, if any.
  static std::optional<std::pair<Edit, Edit>> firstConflict(const std::vector<Edit> &Merged);

  std::vector<Edit> Edits;
  std::set<std::tuple<unsigned, unsigned, std::string>> Seen;
};

} // namespace to_device_migrate
