#include "output/Formatting.h"

#include "clang/Format/Format.h"

namespace to_device_migrate {

llvm::Expected<clang::tooling::Replacements> rewriteOf(const FileResult &Result,
                                                       llvm::StringRef Style) {
  llvm::Expected<clang::tooling::Replacements> Merged =
      Result.edits().toReplacements(Result.Path, Result.Original);
  if (!Merged || Merged->empty() || Style.empty() || Style == "none")
    return Merged;
  llvm::Expected<clang::format::FormatStyle> Format =
      clang::format::getStyle(Style, Result.Path, /*FallbackStyle=*/"none", Result.Original);
  if (!Format)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--format-style: " + llvm::toString(Format.takeError()));
  if (Format->DisableFormat)
    return Merged; // no .clang-format found: the edits as written
  llvm::Expected<clang::tooling::Replacements> Clean =
      clang::format::cleanupAroundReplacements(Result.Original, *Merged, *Format);
  if (!Clean)
    return Clean.takeError();
  return clang::format::formatReplacements(Result.Original, *Clean, *Format);
}

} // namespace to_device_migrate
