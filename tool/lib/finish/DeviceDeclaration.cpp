// device-declaration, a finishing step: where a file uses a device no declaration provides,
// declare one, once, after the file's includes:
//   const torch::Device device(torch::cuda::is_available() ? torch::kCUDA : torch::kCPU);
// It also adds `#include <todevice/todevice.h>`, once, when the device
// expression or the registry mode uses the runtime.
#include "finish/FinishingSteps.h"
#include "compat/LlvmCompat.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Inclusions/HeaderIncludes.h"

using namespace clang;

namespace to_device_migrate {
namespace {

/// The offset where the declaration goes: after the last #include that comes
/// before the first use, or else before the top-level declaration holding it.
/// An #include in a conditional block the first use is not in (`#ifndef
/// NDEBUG`) has the declaration after the block's #endif: inside, another
/// configuration would not declare it. A block holding the use too (an
/// include guard) is no reason to move.
unsigned declarationOffset(const MigrationContext &Ctx, unsigned FirstUse) {
  unsigned Offset = ~0u;
  for (const IncludeLine &Include : Ctx.includes())
    if (Include.LineEnd <= FirstUse) {
      Offset = Include.LineEnd;
      for (const auto &[If, EndifLineEnd] : Include.Conditionals)
        if (!(If <= FirstUse && FirstUse < EndifLineEnd) && EndifLineEnd <= FirstUse)
          Offset = std::max(Offset, EndifLineEnd);
    }
  if (Offset != ~0u)
    return Offset;
  return Ctx.topLevelDeclarationLineStart(FirstUse).value_or(0);
}

} // namespace

/// `IncludedAt`: where includes were just inserted (the declaration keeps a
/// blank line after them too).
void DeviceDeclarationStep::insertDeviceDeclaration(const std::string &Expression,
                                                    llvm::ArrayRef<unsigned> IncludedAt) {
  // A copy: insertedDeviceUse() returns a temporary optional, and a reference into
  // it would dangle (AddressSanitizer: stack-use-after-scope).
  const auto [DeviceName, FirstUse] = *Ctx.device().insertedDeviceUse();
  unsigned Offset = declarationOffset(Ctx, FirstUse);
  llvm::StringRef Code = Ctx.code();
  bool AtLineStart = Offset == 0 || Code[Offset - 1] == '\n';
  const std::string Newline = "\n"; // the consumer turns it into CRLF in a CRLF file

  bool AfterInclude = llvm::is_contained(IncludedAt, Offset);
  for (const IncludeLine &Include : Ctx.includes())
    AfterInclude |= Include.LineEnd == Offset;

  std::string Text = AtLineStart ? "" : Newline;
  if (AfterInclude)
    Text += Newline; // a blank line between the includes and the declaration
  Text += "// Where tensors, models and losses live (added by to-device-migrate)." + Newline;
  // In a header, `inline` (C++17): the header's inline variables (a table
  // built from the device) are initialised after it in every translation unit;
  // a plain const is ordered only against other ordered variables, and such a
  // table could see it before its initialisation, zero: the CPU.
  const bool Inline = !Ctx.options().HeaderPrefix.empty() && Ctx.ast().getLangOpts().CPlusPlus17;
  Text += std::string(Inline ? "inline " : "") + "const " + Ctx.device().torchNamespace().str() +
          "::Device " + DeviceName + "(" + Expression + ");" + Newline;
  if (Offset < Code.size() && Code[Offset] != '\n' && Code[Offset] != '\r')
    Text += Newline;
  supportCode(insertion(Offset, Text));
}

/// Returns where the includes went.
std::vector<unsigned> DeviceDeclarationStep::insertRequiredIncludes() {
  llvm::StringRef Code = Ctx.code();
  clang::tooling::HeaderIncludes Includes(Ctx.filePath(), Code, clang::tooling::IncludeStyle());
  std::vector<unsigned> Offsets;
  for (const std::string &Header : Ctx.device().requiredIncludes())
    if (auto Insertion = compat::insertAngledInclude(Includes, Header)) {
      supportCode(insertion(Insertion->getOffset(), Insertion->getReplacementText()));
      Offsets.push_back(Insertion->getOffset());
    }
  return Offsets;
}

void DeviceDeclarationStep::onEndOfFile() {
  // The expression first: it may ask for the runtime's include, which goes in
  // before the declaration.
  std::string Expression = Ctx.device().insertedDeviceUse() ? Ctx.device().expression() : "";
  std::vector<unsigned> IncludedAt = insertRequiredIncludes();
  if (!Expression.empty())
    insertDeviceDeclaration(Expression, IncludedAt);
}

} // namespace to_device_migrate
