// A module the program pins to the CPU and then runs in the same block
// (`net->to(torch::kCPU); auto out = net(x);`) — a CPU program making sure,
// each time it predicts or trains, that its model is where its inputs are —
// is moved back right after the pin:
//   mNet->to(torch::Device(torch::kCPU));   ->  mNet->to(torch::Device(torch::kCPU));
//   auto out = mNet(board);                     mNet->to(device);
//                                               auto out = mNet(board);
// The pin stays as written (a note says so: hardcoded-device); what follows it
// needs the module where its inputs now are, the device. A pin nothing uses
// the module after (before saving it, at the end) stays the program's last
// word. A local model pinned during its set-up gets its first move there
// already (endOfInitialisation()).
#include "ModuleMoves.h"
#include "ModulePlacement.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace to_device_migrate {

void placeAfterPin(MigrationContext &Ctx, const CXXMemberCallExpr &Pin,
                   const ModuleVariableRule &Rule) {
  // A device variable of the function (`torch::Device device(torch::kCPU)`)
  // is the program's choice of device, which hardcoded-device decides.
  const Expr *Where = Pin.getNumArgs() ? ignoreConversions(Pin.getArg(0)) : nullptr;
  if (!Where || !namesOnlyTheCpu(*Where))
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Where->IgnoreParenImpCasts());
      Ref && isa<VarDecl>(Ref->getDecl()) && cast<VarDecl>(Ref->getDecl())->isLocalVarDecl())
    return;
  ModuleAccess Access = calledOn(Pin.getImplicitObjectArgument());
  if (Access.empty() || Ctx.isPerSampleCode(Pin))
    return;
  // A module handed by reference is moved all the same: the caller's.
  const ModuleSlotType Slot = classifyModuleSlot(Access.object()->getType().getNonReferenceType());
  if (!Slot.holdsModules() || Slot.Container != ModuleContainer::None ||
      !Rule.moves(Slot.Element.Class))
    return;
  auto [Statement, Block] = Ctx.statementInBlock(Pin);
  if (!Statement || !Block || !isa<Expr>(Statement) ||
      cast<Expr>(Statement)->IgnoreImplicit() != &Pin)
    return;
  // A local model pinned before its first use: its first move goes after
  // the pin already.
  if (Access.Fields.empty() && Access.Var && Access.Var->isLocalVarDecl())
    if (auto [Declaration, DeclaredIn] = Ctx.declarationInBlock(*Access.Var);
        DeclaredIn == Block && endOfInitialisation(Ctx, *Block, Declaration, Access) == Statement)
      return;
  const ModuleCallFacts ByCall = moduleCallFacts(Ctx);
  bool After = false;
  for (const Stmt *S : Block->body()) {
    if (S == Statement) {
      After = true;
      continue;
    }
    if (!After || !mentionsModule(*S, Access))
      continue;
    if (isMovedIn(Ctx, S, Access, "")) // moved back already (a second run)
      return;
    switch (roleOf(Ctx.ast(), *S, Access, ByCall)) {
    case StatementRole::Uses:
      break;
    case StatementRole::Asks:
      continue;
    case StatementRole::Initialises: // set up again on the host: moved where that ends
    case StatementRole::PinsToCpu:
      return;
    }
    const ModuleToMove Module{Access.spelling(), Slot, isLossModule(Slot.Element.Class), ""};
    Rule.insertAfterStatement(Pin.getSourceRange(), Ctx.placeOf(*Statement),
                              [&](llvm::StringRef Indent) {
                                return moveStatements(Ctx, {Module}, Ctx.device().at(Pin), Indent);
                              });
    return;
  }
}

} // namespace to_device_migrate
