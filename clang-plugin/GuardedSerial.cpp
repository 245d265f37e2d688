//===- GuardedSerial.cpp - Time serial code that runs only under a test ---===//
#include "GuardedSerial.h"
#include "Compat.h"
#include "RuntimeRefs.h"

#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include "llvm/ADT/STLExtras.h"

#include <utility>

using namespace llvm;

namespace phaseprobe {

void timeGuardedSerial(Module &M, const std::vector<ThreadBranchReport::GuardedEdge> &Edges) {
  if (Edges.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = compat::bytePtrTy(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Function *Begin =
      weakRuntimeFunction(M, "__phaseprobe_serial_guard_begin", {compat::pointerTo(Ptr), I32});
  Function *End = weakRuntimeFunction(M, "__phaseprobe_serial_guard_end", {});
  StringPool Strings(M);
  for (const ThreadBranchReport::GuardedEdge &G : Edges) {
    BasicBlock *From = G.branch->getParent();
    BasicBlock *To = G.branch->getSuccessor(G.successor);
    Function &F = *From->getParent();
    // The ways out of the code the edge dominates, found before anything
    // is split (a fresh tree: earlier edges split blocks of this function).
    DominatorTree DT(F);
    BasicBlockEdge Edge(From, To);
    std::vector<std::pair<BasicBlock *, BasicBlock *>> Exits;
    std::vector<Instruction *> Returns;
    bool Pad = false;
    for (BasicBlock &BB : F) {
      if (!DT.dominates(Edge, &BB))
        continue;
      Instruction *Term = BB.getTerminator();
      if (isa<ReturnInst>(Term))
        Returns.push_back(Term);
      for (BasicBlock *S : successors(&BB))
        if (!DT.dominates(Edge, S) && !llvm::is_contained(Exits, std::make_pair(&BB, S))) {
          Pad |= S->isEHPad();
          Exits.push_back({&BB, S});
        }
    }
    if (Pad)
      continue;
    Constant *Text[] = {Strings.get(G.test)};
    Value *Args[] = {constArrayPtr(M, Ptr, Text, "__phaseprobe.serial_tests"),
                     ConstantInt::get(I32, 1)};
    const DebugLoc &DL = G.branch->getDebugLoc();
    BasicBlock *In = SplitEdge(From, To);
    callIfResolved(&*In->getFirstInsertionPt(), Begin, Args, DL);
    for (auto [BB, S] : Exits) {
      BasicBlock *Out = SplitEdge(BB, S);
      callIfResolved(&*Out->getFirstInsertionPt(), End, {}, DL);
    }
    for (Instruction *R : Returns)
      callIfResolved(R, End, {}, DL);
  }
}

} // namespace phaseprobe
