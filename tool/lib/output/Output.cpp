#include "output/Output.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

namespace to_device_migrate {

llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  namespace fs = llvm::sys::fs;
  llvm::SmallString<256> Model(Path);
  Model += ".to-device-%%%%%%.tmp";
  int FD = -1;
  llvm::SmallString<256> TempPath;
  if (std::error_code EC = fs::createUniqueFile(Model, FD, TempPath))
    return llvm::createStringError(EC, "cannot create a temporary file next to '%s': %s",
                                   Path.str().c_str(), EC.message().c_str());
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      fs::remove(TempPath);
      return llvm::createStringError(EC, "cannot write '%s': %s", TempPath.c_str(),
                                     EC.message().c_str());
    }
  }
  if (llvm::ErrorOr<fs::perms> Perms = fs::getPermissions(Path))
    fs::setPermissions(TempPath, *Perms);
  if (std::error_code EC = fs::rename(TempPath, Path)) {
    fs::remove(TempPath);
    return llvm::createStringError(EC, "cannot replace '%s': %s", Path.str().c_str(),
                                   EC.message().c_str());
  }
  return llvm::Error::success();
}

} // namespace to_device_migrate
