#include "engine/Rule.h"

using namespace clang;

namespace to_device_migrate {

DiagnosticBuilder Rule::diag(SourceLocation Loc, StringRef Message, DiagnosticIDs::Level Level) const {
  return Ctx.diagnostics().diag(Name, Loc, Message, Level);
}

DiagnosticBuilder Rule::rewrite(SourceRange Site, const FixItHint &Fix) const {
  DiagnosticBuilder Builder =
      diag(Fix.RemoveRange.getBegin(), ("not on the device yet: " + ruleSummary(Name)).str());
  if (Site.isValid())
    Builder << Site;
  Builder << Fix;
  return Builder;
}

DiagnosticBuilder Rule::supportCode(const FixItHint &Fix) const {
  DiagnosticBuilder Builder = diag(Fix.RemoveRange.getBegin(), ruleSummary(Name), DiagnosticIDs::Remark);
  Builder << Fix;
  return Builder;
}

FixItHint Rule::insertion(unsigned Offset, StringRef Text) const {
  return FixItHint::CreateInsertion(Ctx.locationAt(Offset), Text);
}

FixItHint Rule::replacement(SourceRange TokenRange, StringRef Text) const {
  return replacement(Ctx.offsetOf(TokenRange.getBegin()), Ctx.offsetAfterToken(TokenRange.getEnd()),
                     Text);
}

FixItHint Rule::replacement(unsigned Begin, unsigned End, StringRef Text) const {
  return FixItHint::CreateReplacement(
      CharSourceRange::getCharRange(Ctx.locationAt(Begin), Ctx.locationAt(End)), Text);
}

} // namespace to_device_migrate
