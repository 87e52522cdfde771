#include "compat/LlvmCompat.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#if __has_include("clang/UnifiedSymbolResolution/USRGeneration.h")
#include "clang/UnifiedSymbolResolution/USRGeneration.h"
#else
#include "clang/Index/USRGeneration.h"
#endif

#if LLVM_VERSION_MAJOR >= 15
#include "clang/Lex/DependencyDirectivesScanner.h"
#else
#include "clang/Lex/DependencyDirectivesSourceMinimizer.h"
#endif

namespace to_device_migrate {
namespace compat {

bool generateUsr(const clang::Decl *D, llvm::SmallVectorImpl<char> &Usr) {
  return !clang::index::generateUSRForDecl(D, Usr); // it returns true on failure
}

std::string realPathOrName(clang::FileEntryRef File) {
  llvm::StringRef Real = File.getFileEntry().tryGetRealPathName();
  return (Real.empty() ? File.getName() : Real).str();
}

#if LLVM_VERSION_MAJOR < 15
// LLVM 14 hands InclusionDirective a FileEntry, whose getName still exists.
std::string IncludeCallbacks::pathOf(const clang::FileEntry &File) {
  llvm::StringRef Real = File.tryGetRealPathName();
  return (Real.empty() ? File.getName() : Real).str();
}
#endif

std::string fileName(const clang::SourceManager &SM, clang::FileID File) {
  auto Entry = SM.getFileEntryRefForID(File);
  return Entry ? Entry->getName().str() : std::string();
}

std::string filePath(const clang::SourceManager &SM, clang::FileID File) {
  auto Entry = SM.getFileEntryRefForID(File);
  return Entry ? realPathOrName(*Entry) : std::string();
}

void makeAbsolute(llvm::StringRef Directory, llvm::SmallVectorImpl<char> &Path) {
#if LLVM_VERSION_MAJOR >= 22
  llvm::sys::path::make_absolute(Directory, Path);
#else
  llvm::sys::fs::make_absolute(Directory, Path);
#endif
}

std::optional<clang::tooling::Replacement>
insertAngledInclude(const clang::tooling::HeaderIncludes &Includes, llvm::StringRef Header) {
#if LLVM_VERSION_MAJOR >= 16
  return Includes.insert(Header, /*IsAngled=*/true, clang::tooling::IncludeDirective::Include);
#else
  if (auto Insertion = Includes.insert(Header, /*IsAngled=*/true))
    return *Insertion;
  return std::nullopt;
#endif
}

TextDiagnostics::TextDiagnostics(llvm::raw_ostream &OS, bool Colors) {
#if LLVM_VERSION_MAJOR >= 23
  Options.setShowColors(Colors ? clang::ShowColorsKind::On : clang::ShowColorsKind::Off);
  Printer = std::make_unique<clang::TextDiagnosticPrinter>(OS, Options);
#elif LLVM_VERSION_MAJOR >= 21
  Options.ShowColors = Colors;
  Printer = std::make_unique<clang::TextDiagnosticPrinter>(OS, Options);
#else
  Options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Options->ShowColors = Colors;
  Printer = std::make_unique<clang::TextDiagnosticPrinter>(OS, Options.get());
#endif
}

DiagnosticsOf::DiagnosticsOf(clang::DiagnosticConsumer &Consumer) {
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> Ids(new clang::DiagnosticIDs());
#if LLVM_VERSION_MAJOR >= 21
  Engine = std::make_unique<clang::DiagnosticsEngine>(Ids, Options, &Consumer, false);
#else
  Options = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  Engine = std::make_unique<clang::DiagnosticsEngine>(Ids, Options, &Consumer, false);
#endif
}

void emplaceTransformer(std::optional<clang::tooling::Transformer> &Slot,
                        clang::transformer::RewriteRule Rule,
                        std::function<void(llvm::Expected<clang::tooling::AtomicChange>)> Consumer) {
#if LLVM_VERSION_MAJOR >= 15
  Slot.emplace(std::move(Rule),
               [Consumer = std::move(Consumer)](
                   llvm::Expected<llvm::MutableArrayRef<clang::tooling::AtomicChange>> Changes) {
                 if (!Changes)
                   return Consumer(Changes.takeError());
                 for (clang::tooling::AtomicChange &Change : *Changes)
                   Consumer(std::move(Change));
               });
#else
  Slot.emplace(std::move(Rule), std::move(Consumer));
#endif
}

namespace {
std::string withoutSpaces(llvm::StringRef Text) {
  std::string Out;
  for (char C : Text)
    if (C != ' ' && C != '\t')
      Out += C;
  return Out;
}
} // namespace

bool includedHeaders(llvm::StringRef Source, std::vector<std::string> &Headers) {
#if LLVM_VERSION_MAJOR >= 15
  namespace scan = clang::dependency_directives_scan;
  llvm::SmallVector<scan::Token, 64> Tokens;
  llvm::SmallVector<scan::Directive, 16> Directives;
  if (clang::scanSourceForDependencyDirectives(Source, Tokens, Directives))
    return false;
  for (const scan::Directive &D : Directives) {
    if (D.Kind != scan::pp_include || D.Tokens.size() < 3)
      continue;
    // `#` `include`, then the header name's tokens up to the line's end.
    std::string Header;
    for (size_t I = 2; I < D.Tokens.size() && !D.Tokens[I].is(clang::tok::eod); ++I)
      Header += Source.substr(D.Tokens[I].Offset, D.Tokens[I].Length);
    Headers.push_back(withoutSpaces(Header));
  }
#else
  namespace minimize = clang::minimize_source_to_dependency_directives;
  llvm::SmallString<1024> Directives;
  llvm::SmallVector<minimize::Token, 32> Tokens;
  if (clang::minimizeSourceToDependencyDirectives(Source, Directives, Tokens))
    return false;
  for (const minimize::Token &Token : Tokens) {
    if (Token.K != minimize::pp_include)
      continue;
    // One directive per line in the minimized text: `#include <x.h>`.
    llvm::StringRef Line = llvm::StringRef(Directives).substr(Token.Offset);
    Line = Line.take_until([](char C) { return C == '\n'; }).ltrim(" \t#").ltrim();
    Line.consume_front("include");
    Headers.push_back(withoutSpaces(Line));
  }
#endif
  return true;
}

} // namespace compat
} // namespace to_device_migrate
