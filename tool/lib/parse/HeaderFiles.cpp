#include "parse/HeaderFiles.h"
#include "compat/LlvmCompat.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace to_device_migrate {

bool isLibraryHeader(llvm::StringRef Path) {
  for (llvm::StringRef Root : {"/usr/include/", "/usr/lib/", "/usr/local/cuda"})
    if (compat::startsWith(Path, Root))
      return true;
  for (llvm::StringRef Component : {"/ATen/", "/c10/", "/torch/csrc/", "/caffe2/", "/include/todevice/"})
    if (Path.contains(Component))
      return true;
  return false;
}

std::string headerPrefix(llvm::StringRef Header) {
  std::string Prefix = llvm::sys::path::stem(Header).str();
  for (char &C : Prefix)
    if (!llvm::isAlnum(C))
      C = '_';
  if (Prefix.empty() || llvm::isDigit(Prefix.front()))
    Prefix.insert(0, "header_");
  return Prefix;
}

} // namespace to_device_migrate
