// includesTorchHeader decides, before parsing, whether a file is parsed with
// the precompiled <torch/torch.h>: only a real #include counts.
#include "parse/PchCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

namespace to_device_migrate {
namespace {

bool includes(llvm::StringRef Source) {
  llvm::SmallString<128> Path;
  int FD = -1;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("include-scan", "cpp", FD, Path));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Source;
  }
  const bool Result = includesTorchHeader(Path);
  llvm::sys::fs::remove(Path);
  return Result;
}

TEST(IncludeScan, AngledAndQuotedIncludesCount) {
  EXPECT_TRUE(includes("#include <torch/torch.h>\nint main() {}\n"));
  EXPECT_TRUE(includes("#include <vector>\n#  include \"torch/torch.h\" // the API\n"));
  EXPECT_TRUE(includes("#ifdef X\n#else\n#include <torch/torch.h>\n#endif\n"));
}

TEST(IncludeScan, CommentsStringsAndOtherHeadersDoNot) {
  EXPECT_FALSE(includes("// #include <torch/torch.h>\nint main() {}\n"));
  EXPECT_FALSE(includes("/*\n#include <torch/torch.h>\n*/\nint main() {}\n"));
  EXPECT_FALSE(includes("const char *s = \"#include <torch/torch.h>\";\n"));
  EXPECT_FALSE(includes("#include <torch/script.h>\n"));
}

TEST(IncludeScan, MissingFileDoesNot) {
  EXPECT_FALSE(includesTorchHeader("/nonexistent/dir/file.cpp"));
}

} // namespace
} // namespace to_device_migrate
