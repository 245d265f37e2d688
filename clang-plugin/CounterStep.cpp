//===- CounterStep.cpp - The iteration counters' step, opaque after vectorization -===//
#include "CounterStep.h"
#include "CounterTbaa.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace phaseprobe {

namespace {
constexpr const char *StepKind = "phaseprobe.counter.step";
} // namespace

void markCounterStep(Instruction &Add) {
  Add.setMetadata(StepKind, MDNode::get(Add.getContext(), {}));
}

/// Whether the loop of \p Add, the counter's step, has another induction
/// variable with a constant step that the loop strength reduction could
/// rebuild on the counter (a loop index; a binary search's bounds are none).
static bool hasOtherAffineIv(BinaryOperator &Add, LoopInfo &LI, ScalarEvolution &SE) {
  Loop *L = LI.getLoopFor(Add.getParent());
  auto *Counter = dyn_cast<PHINode>(Add.getOperand(0));
  if (!L || !Counter)
    return false;
  for (PHINode &Phi : L->getHeader()->phis()) {
    if (&Phi == Counter || !Phi.getType()->isIntegerTy() || !SE.isSCEVable(Phi.getType()))
      continue;
    if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&Phi)))
      if (AR->getLoop() == L && AR->isAffine() && isa<SCEVConstant>(AR->getStepRecurrence(SE)))
        return true;
  }
  return false;
}

PreservedAnalyses CounterStepPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  unsigned Kind = M.getContext().getMDKindID(StepKind);
  Type *I64 = Type::getInt64Ty(M.getContext());
  MDNode *Tag = counterTbaaTag(M);
  GlobalVariable *One = nullptr;
  bool Changed = false;
  for (Function &F : M) {
    SmallVector<BinaryOperator *, 16> Marked, Steps;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (I.getMetadata(Kind))
          if (auto *Add = dyn_cast<BinaryOperator>(&I))
            if (Add->getOpcode() == Instruction::Add && Add->getType() == I64)
              if (auto *C = dyn_cast<ConstantInt>(Add->getOperand(1)))
                if (C->isOne())
                  Marked.push_back(Add);
    if (Marked.empty())
      continue;
    // Elsewhere a constant step costs nothing and an opaque one a register
    // (XSBench's binary searches, called per nuclide: +1.2% instructions).
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    ScalarEvolution &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    for (BinaryOperator *Add : Marked)
      if (hasOtherAffineIv(*Add, LI, SE))
        Steps.push_back(Add);
    for (BinaryOperator *Add : Marked)
      Add->setMetadata(Kind, nullptr);
    if (Steps.empty())
      continue;
    if (!One) {
      // The module's own: no GOT load in position-independent code, and
      // externally_initialized, so that no later pass folds its 1.
      One = new GlobalVariable(M, I64, /*isConstant=*/false, GlobalValue::InternalLinkage,
                               ConstantInt::get(I64, 1), "__phaseprobe.one");
      One->setExternallyInitialized(true);
    }
    IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
    LoadInst *Step = B.CreateLoad(I64, One, "pp.step");
    Step->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(M.getContext(), {}));
    if (Tag)
      Step->setMetadata(LLVMContext::MD_tbaa, Tag);
    for (BinaryOperator *Add : Steps)
      Add->setOperand(1, Step);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace phaseprobe
