#include "output/FindingPrinter.h"

#include "clang/Basic/FileSystemOptions.h"
#include "llvm/Support/MemoryBuffer.h"

namespace to_device_migrate {

FindingPrinter::FindingPrinter(llvm::raw_ostream &OS, bool Colors)
    : Printer(OS, Colors), Diagnostics(*this), Files(clang::FileSystemOptions()) {
  Sources = std::make_unique<clang::SourceManager>(Diagnostics.engine(), Files);
  Diagnostics.engine().setSourceManager(Sources.get());
  Printer.consumer().BeginSourceFile(LangOpts, nullptr);
}

FindingPrinter::~FindingPrinter() { Printer.consumer().EndSourceFile(); }

clang::SourceLocation FindingPrinter::locationOf(const FileResult &Result, const Finding &F) {
  if (F.Line == 0)
    return {};
  auto [Known, New] = Opened.try_emplace(F.file());
  if (New) {
    // The migrated file as the rules read it; another file (a header not
    // migrated) as it is on disk.
    std::unique_ptr<llvm::MemoryBuffer> Text;
    if (F.file() == Result.Path)
      Text = llvm::MemoryBuffer::getMemBufferCopy(Result.Original, Result.Path);
    else if (auto OnDisk = llvm::MemoryBuffer::getFile(F.file()))
      Text = std::move(*OnDisk);
    if (Text)
      Known->second = Sources->createFileID(std::move(Text));
  }
  if (Known->second.isInvalid())
    return {};
  return Sources->getLocForStartOfFile(Known->second).getLocWithOffset(F.offset());
}

void FindingPrinter::print(const FileResult &Result, const Finding &F) {
  clang::DiagnosticsEngine &Engine = Diagnostics.engine();
  Level = F.isWarning() ? clang::DiagnosticsEngine::Warning : clang::DiagnosticsEngine::Note;
  const unsigned ID =
      Engine.getDiagnosticIDs()->getCustomDiagID(clang::DiagnosticIDs::Warning, "%0 [%1]");
  Engine.Report(locationOf(Result, F), ID) << F.message() << F.rule();
}

void FindingPrinter::HandleDiagnostic(clang::DiagnosticsEngine::Level, const clang::Diagnostic &Info) {
  Printer.consumer().HandleDiagnostic(Level, Info);
}

unsigned FindingPrinter::printRewrites(const FileResult &Result) {
  unsigned Count = 0;
  for (const Finding *F : Result.inSourceOrder()) {
    if (F->Kind == FindingKind::Rewrite)
      print(Result, *F);
    Count += F->isWarning();
  }
  return Count;
}

} // namespace to_device_migrate
