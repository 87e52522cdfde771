// The LLVM/Clang API differences between the versions the tool builds with
// (LLVM 14 to 23): every #if on LLVM_VERSION_MAJOR lives here and in
// LlvmCompat.cpp, so the rest of the tool is written once.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Tooling/Inclusions/HeaderIncludes.h"
#include "clang/Tooling/Transformer/Transformer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/ThreadPool.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace to_device_migrate {
namespace compat {

// StringRef::startswith/endswith became starts_with/ends_with (LLVM 16) and
// the old names were removed (LLVM 19).
inline bool startsWith(llvm::StringRef S, llvm::StringRef Prefix) {
  return S.size() >= Prefix.size() && S.substr(0, Prefix.size()) == Prefix;
}
inline bool endsWith(llvm::StringRef S, llvm::StringRef Suffix) {
  return S.size() >= Suffix.size() && S.substr(S.size() - Suffix.size()) == Suffix;
}

// llvm::ThreadPool became an interface with DefaultThreadPool (LLVM 19).
#if LLVM_VERSION_MAJOR >= 19
using ThreadPool = llvm::DefaultThreadPool;
#else
using ThreadPool = llvm::ThreadPool;
#endif

/// The type of a class (ASTContext::getRecordType became getCanonicalTagType
/// in LLVM 22).
inline clang::QualType recordType(const clang::ASTContext &Ast, const clang::CXXRecordDecl *Class) {
#if LLVM_VERSION_MAJOR >= 22
  return Ast.getCanonicalTagType(Class);
#else
  return Ast.getRecordType(Class);
#endif
}

/// Where a call begins, for every kind of call. CallExpr::getBeginLoc is not
/// virtual, and since LLVM 22 it gives an operator call written as a function
/// call (`transform(x)`) the callee's location, the '(': Stmt's getBeginLoc
/// dispatches on the node's class, as the AST's own source ranges do.
inline clang::SourceLocation beginOf(const clang::CallExpr &Call) {
  return static_cast<const clang::Stmt &>(Call).getBeginLoc();
}

/// `Path` made absolute against `Directory` (llvm::sys::fs::make_absolute
/// moved to llvm::sys::path in LLVM 22).
void makeAbsolute(llvm::StringRef Directory, llvm::SmallVectorImpl<char> &Path);

/// The replacement that adds `#include <Header>` where clang-format's include
/// style puts it, or none when it is there (LLVM 16 added the directive kind).
std::optional<clang::tooling::Replacement>
insertAngledInclude(const clang::tooling::HeaderIncludes &Includes, llvm::StringRef Header);

/// DiagnosticOptions as the printer and the engine keep them: reference
/// counted until LLVM 21, taken by reference since.
#if LLVM_VERSION_MAJOR >= 21
using DiagnosticOptionsSlot = clang::DiagnosticOptions;
#else
using DiagnosticOptionsSlot = llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions>;
#endif

/// Clang's text diagnostic printer with its options (their ShowColors became a
/// three-valued setting in LLVM 23).
class TextDiagnostics {
public:
  TextDiagnostics(llvm::raw_ostream &OS, bool Colors);
  clang::DiagnosticConsumer &consumer() { return *Printer; }

private:
  DiagnosticOptionsSlot Options;
  std::unique_ptr<clang::TextDiagnosticPrinter> Printer;
};

/// A DiagnosticsEngine of our own over `Consumer` (not owned), with its options.
class DiagnosticsOf {
public:
  explicit DiagnosticsOf(clang::DiagnosticConsumer &Consumer);
  clang::DiagnosticsEngine &engine() { return *Engine; }

private:
  DiagnosticOptionsSlot Options;
  std::unique_ptr<clang::DiagnosticsEngine> Engine;
};

/// Makes `Slot` a Clang Transformer for `Rule` that hands `Consumer` each
/// change (or error). Its consumer took one change in LLVM 14 and takes the
/// set of a match's changes since.
void emplaceTransformer(std::optional<clang::tooling::Transformer> &Slot,
                        clang::transformer::RewriteRule Rule,
                        std::function<void(llvm::Expected<clang::tooling::AtomicChange>)> Consumer);

/// `D`'s Unified Symbol Resolution name (clang's index names), in `Usr`;
/// false when it has none. Its header moved from clang/Index to
/// clang/UnifiedSymbolResolution in LLVM 23.
bool generateUsr(const clang::Decl *D, llvm::SmallVectorImpl<char> &Usr);

/// A file's real path when known, else the name it was opened by.
std::string realPathOrName(clang::FileEntryRef File);

/// The name a file was opened by, or "" for a buffer with no file.
/// FileEntry::getName is gone (LLVM 19); FileEntryRef is in every version.
std::string fileName(const clang::SourceManager &SM, clang::FileID File);
/// The file's real path when known, else the name it was opened by.
std::string filePath(const clang::SourceManager &SM, clang::FileID File);

/// PPCallbacks::InclusionDirective's signature changed in LLVM 15, 16 and 19.
/// A callbacks class derives from this and overrides `included` instead.
class IncludeCallbacks : public clang::PPCallbacks {
public:
  /// `Path` is the included file's path ("" when it was not found).
  virtual void included(clang::SourceLocation HashLoc, clang::CharSourceRange FilenameRange,
                        llvm::StringRef Path, clang::SrcMgr::CharacteristicKind Kind) = 0;

#if LLVM_VERSION_MAJOR >= 19
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef,
                          bool, clang::CharSourceRange FilenameRange,
                          clang::OptionalFileEntryRef File, llvm::StringRef, llvm::StringRef,
                          const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind Kind) override {
    included(HashLoc, FilenameRange, File ? pathOf(*File) : std::string(), Kind);
  }
#elif LLVM_VERSION_MAJOR >= 15
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef,
                          bool, clang::CharSourceRange FilenameRange,
#if LLVM_VERSION_MAJOR >= 16
                          clang::OptionalFileEntryRef File,
#else
                          llvm::Optional<clang::FileEntryRef> File,
#endif
                          llvm::StringRef, llvm::StringRef, const clang::Module *,
                          clang::SrcMgr::CharacteristicKind Kind) override {
    included(HashLoc, FilenameRange, File ? pathOf(*File) : std::string(), Kind);
  }
#else
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &, llvm::StringRef,
                          bool, clang::CharSourceRange FilenameRange, const clang::FileEntry *File,
                          llvm::StringRef, llvm::StringRef, const clang::Module *,
                          clang::SrcMgr::CharacteristicKind Kind) override {
    included(HashLoc, FilenameRange, File ? pathOf(*File) : std::string(), Kind);
  }
#endif

private:
#if LLVM_VERSION_MAJOR >= 15
  static std::string pathOf(clang::FileEntryRef File) { return realPathOrName(File); }
#else
  static std::string pathOf(const clang::FileEntry &File);
#endif
};

/// The headers a source file's #include directives name, as the preprocessor
/// sees them (comments, strings and disabled text do not hide a directive from
/// the scan, but are no directive either): `<torch/torch.h>`, `"model.h"`,
/// spaces removed. False when the text cannot be lexed. clang's dependency
/// directive minimizer was replaced by the dependency directives scanner
/// (LLVM 15).
bool includedHeaders(llvm::StringRef Source, std::vector<std::string> &Headers);

} // namespace compat
} // namespace to_device_migrate
