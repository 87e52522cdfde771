#include "run/SummaryCache.h"
#include "Config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

namespace fs = llvm::sys::fs;
namespace json = llvm::json;

namespace to_device_migrate {
namespace {

/// Bumped when what a summary holds changes meaning.
constexpr llvm::StringLiteral SummaryFormat = "5";

std::string hex(llvm::MD5 &Hash) {
  llvm::MD5::MD5Result Digest;
  Hash.final(Digest);
  return Digest.digest().str().str();
}

/// The MD5 of a file's content, "" if it cannot be read.
std::string contentHash(llvm::StringRef Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path);
  if (!Buffer)
    return "";
  llvm::MD5 Hash;
  Hash.update((*Buffer)->getBuffer());
  return hex(Hash);
}

/// This binary's identity: its path, size and time (a rebuild changes them).
const std::string &toolBuild() {
  static const std::string Identity = [] {
    std::string Self = fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&toolBuild));
    fs::file_status Status;
    if (Self.empty() || fs::status(Self, Status))
      return Self;
    return Self + ":" + std::to_string(Status.getSize()) + ":" +
           std::to_string(Status.getLastModificationTime().time_since_epoch().count());
  }();
  return Identity;
}

} // namespace

std::string SummaryCache::keyFor(llvm::StringRef File,
                                 const clang::tooling::CommandLineArguments &Command,
                                 llvm::StringRef HeaderFilter) {
  llvm::MD5 Hash;
  for (llvm::StringRef Part :
       {llvm::StringRef(SummaryFormat), llvm::StringRef(TO_DEVICE_MIGRATE_VERSION),
        llvm::StringRef(TO_DEVICE_CLANG_VERSION), llvm::StringRef(TO_DEVICE_TORCH_VERSION),
        llvm::StringRef(toolBuild()), File, HeaderFilter}) {
    Hash.update(Part);
    Hash.update(llvm::StringRef("\0", 1));
  }
  for (const std::string &Arg : Command) {
    Hash.update(Arg);
    Hash.update(llvm::StringRef("\0", 1));
  }
  return hex(Hash);
}

std::string SummaryCache::pathOf(llvm::StringRef Key) const {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, Key + ".json");
  return Path.str().str();
}

std::optional<TranslationUnitSummary> SummaryCache::load(llvm::StringRef Key) const {
  if (Directory.empty())
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(pathOf(Key));
  if (!Buffer)
    return std::nullopt;
  llvm::Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    llvm::consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const json::Object *Entry = Parsed->getAsObject();
  const json::Array *Files = Entry ? Entry->getArray("files") : nullptr;
  const json::Value *Summary = Entry ? Entry->get("summary") : nullptr;
  if (!Files || !Summary)
    return std::nullopt;
  for (const json::Value &File : *Files) {
    const json::Object *Record = File.getAsObject();
    std::optional<llvm::StringRef> Path = Record ? Record->getString("path") : std::nullopt;
    std::optional<llvm::StringRef> Content = Record ? Record->getString("md5") : std::nullopt;
    if (!Path || !Content || contentHash(*Path) != *Content)
      return std::nullopt;
  }
  return TranslationUnitSummary::fromJSON(*Summary);
}

void SummaryCache::store(llvm::StringRef Key, const ParseAnalysis &Analysis) const {
  if (Directory.empty() || fs::create_directories(Directory))
    return;
  json::Array Files;
  for (const std::string &Path : Analysis.UserFiles) {
    std::string Content = contentHash(Path);
    if (Content.empty())
      return; // a file gone already: nothing to validate against
    Files.push_back(json::Object{{"path", Path}, {"md5", Content}});
  }
  const std::string Path = pathOf(Key);
  llvm::SmallString<256> Temporary;
  int FD = -1;
  if (fs::createUniqueFile(Path + ".%%%%%%.tmp", FD, Temporary))
    return;
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << json::Value(json::Object{{"files", std::move(Files)},
                                    {"summary", Analysis.Summary.toJSON()}});
  }
  if (fs::rename(Temporary, Path))
    fs::remove(Temporary);
}

} // namespace to_device_migrate
