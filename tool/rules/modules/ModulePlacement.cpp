#include "ModulePlacement.h"
#include "ModuleMoves.h"
#include "facts/Matchers.h"
#include "facts/PerSampleCode.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace to_device_migrate {

void placeModuleMembers(MigrationContext &Ctx, const VarDecl &Var, const ModuleVariableRule &Rule) {
  const CXXRecordDecl *Record = Var.getType()->getAsCXXRecordDecl();
  if (isa<ParmVarDecl>(Var) || Var.getType()->isReferenceType() || Var.isStaticDataMember() ||
      !isUserRecord(Record) || isInsideModuleMember(&Var) || Ctx.isPerSampleCode(Var))
    return;
  std::vector<ModuleMember> Members;
  ModuleAccess Holder;
  Holder.Var = &Var;
  collectModuleMembers(Ctx, *Record, Holder, Rule, Members);
  if (Members.empty())
    return;
  if (Var.getType().isConstQualified()) {
    Rule.diag(Var.getLocation(),
              "'" + Var.getName().str() +
                  "' holds modules but is const, and Module::to() changes them: not moved")
        << Var.getSourceRange();
    return;
  }
  if (!Var.hasLocalStorage()) {
    if (Var.getDeclContext()->isFileContext())
      placeGlobal(Ctx, Var, Members, Rule);
    return;
  }
  MigrationContext::StatementPlace Place = Ctx.placeOf(Var);
  const auto *Function = dyn_cast_or_null<FunctionDecl>(Var.getParentFunctionOrMethod());
  if (!Place.Statement || !Place.Block || !Function)
    return;
  std::vector<ModuleToMove> Modules;
  for (const ModuleMember &Member : Members)
    if (!isMovedIn(Ctx, Function->getBody(), Member.Access, ""))
      Modules.push_back({Member.Access.spelling(), Member.Type,
                         isLossModule(Member.Type.Element.Class), ""});
  if (Modules.empty() || !Ctx.isWrittenInFile(Place.Statement->getSourceRange()))
    return;
  const std::string Device = Ctx.device().at(Var);
  Rule.insertAfterStatement(Var.getSourceRange(), Place, [&](llvm::StringRef Indent) {
    return moveStatements(Ctx, Modules, Device, Indent);
  });
}

void ModuleVariableRule::registerMatchers(MatchFinder *Finder) {
  // A plain struct holding modules (`struct Holder { nn::Linear proj{2, 2}; }`).
  // Spelled-in-source traversal skips template instantiations: a template is
  // rewritten once, not once per instantiation.
  Finder->addMatcher(
      traverse(TK_IgnoreUnlessSpelledInSource,
               varDecl(isExpansionInFile(Ctx.file()), unless(hasType(referenceType())),
                       hasType(cxxRecordDecl(hasDefinition())))
                   .bind("holder")),
      this);
  // A module pinned to the CPU (PinPlacement.cpp); in a template, each
  // instantiation's (`T net; net->to(torch::kCPU)` is dependent in the
  // template), whose edits are one.
  const auto Pin = cxxMemberCallExpr(
      isExpansionInFile(Ctx.file()),
      callee(cxxMethodDecl(hasName("to"), ofClass(isSameOrDerivedFrom("::torch::nn::Module")))));
  Finder->addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, Pin.bind("pin")), this);
  Finder->addMatcher(traverse(TK_AsIs, cxxMemberCallExpr(Pin, isInTemplateInstantiation()).bind("pin")),
                     this);
  // A constructor that builds module members (ConstructorPlacement.cpp).
  Finder->addMatcher(
      traverse(
          TK_IgnoreUnlessSpelledInSource,
          cxxConstructorDecl(isExpansionInFile(Ctx.file()), isDefinition()).bind("constructor")),
      this);
}

void ModuleVariableRule::check(const MatchFinder::MatchResult &Result) {
  if (const auto *Constructor = Result.Nodes.getNodeAs<CXXConstructorDecl>("constructor")) {
    placeMembersInConstructor(Ctx, *Constructor, *this);
    return;
  }
  if (const auto *Pin = Result.Nodes.getNodeAs<CXXMemberCallExpr>("pin")) {
    placeAfterPin(Ctx, *Pin, *this);
    return;
  }
  if (const auto *Holder = Result.Nodes.getNodeAs<VarDecl>("holder");
      Holder && !classifyModuleSlot(Holder->getType()).holdsModules())
    placeModuleMembers(Ctx, *Holder, *this);
}

void ModuleVariableRule::onEndOfFile() {
  std::vector<InitialisedRange> Initialised;
  for (const ModuleStore &Store : Ctx.facts().moduleStores())
    placeStore(Ctx, Store, *this, Initialised);
}

} // namespace to_device_migrate
