#include "output/Formatting.h"

#include "clang/Format/Format.h"

namespace to_device_migrate {

/// `Result`'s edits formatted in `Style`.
static llvm::Expected<clang::tooling::Replacements> formatted(const FileResult &Result,
                                                              llvm::StringRef Style) {
  if (Result.Edits.empty() || Style.empty() || Style == "none")
    return Result.Edits;
  llvm::Expected<clang::format::FormatStyle> Format =
      clang::format::getStyle(Style, Result.Path, /*FallbackStyle=*/"none", Result.Original);
  if (!Format)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--format-style: " + llvm::toString(Format.takeError()));
  if (Format->DisableFormat)
    return Result.Edits; // no .clang-format found: the edits as written
  llvm::Expected<clang::tooling::Replacements> Clean =
      clang::format::cleanupAroundReplacements(Result.Original, Result.Edits, *Format);
  if (!Clean)
    return Clean.takeError();
  return clang::format::formatReplacements(Result.Original, *Clean, *Format);
}

llvm::Error settleRewrite(FileResult &Result, llvm::StringRef Style) {
  Result.Rewrite.clear();
  Result.Migrated = Result.Original; // what stays if the edits cannot be formatted
  llvm::Expected<clang::tooling::Replacements> Rewrite = formatted(Result, Style);
  if (!Rewrite)
    return Rewrite.takeError();
  llvm::Expected<std::string> Migrated =
      clang::tooling::applyAllReplacements(Result.Original, *Rewrite);
  if (!Migrated)
    return Migrated.takeError();
  Result.Rewrite = std::move(*Rewrite);
  Result.Migrated = std::move(*Migrated);
  return llvm::Error::success();
}

} // namespace to_device_migrate
