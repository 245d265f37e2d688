//===- SyncLoops.cpp - Loops that synchronize threads rather than work ----===//
#include "SyncLoops.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace phaseprobe {

namespace {

// phaseprobe's own TLS counters (globals keep their names; clang drops the
// names of locals, so the allocas the pass adds are told apart by what is
// stored: the armed flag gets constants, the iteration counter is never in
// a synchronizing loop).
bool isPhaseprobes(const Value *Ptr) {
  const auto *G = dyn_cast<GlobalValue>(getUnderlyingObject(Ptr));
  return G && G->getName().startswith("__phaseprobe");
}

// Whether the value \p V stored to the local \p Slot is computed from
// \p Slot itself inside \p L: loop state (an index, an accumulator) rather
// than a temporary (clang keeps a C11 atomic load's result in one).
bool carriedIn(const Loop &L, const Value *V, const AllocaInst *Slot) {
  SmallVector<const Value *, 16> Work{V};
  SmallPtrSet<const Value *, 16> Seen;
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (auto *Ld = dyn_cast<LoadInst>(I))
      if (getUnderlyingObject(Ld->getPointerOperand()) == Slot)
        return true;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

} // namespace

SyncLoopKind syncLoopKind(const Loop &L) {
  bool Reads = false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (isa<AtomicCmpXchgInst>(I))
        return SyncLoopKind::Retry;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        Reads |= LI->isVolatile() || LI->isAtomic();
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        // A store to memory is work; so is a store of loop state to a
        // local (`s += vol[i]` reads volatile memory but is a loop over
        // data, not a wait). A temporary is not state.
        const Value *Ptr = SI->getPointerOperand();
        if (SI->isVolatile() || SI->isAtomic())
          return SyncLoopKind::None;
        if (isPhaseprobes(Ptr))
          continue;
        const auto *Slot = dyn_cast<AllocaInst>(getUnderlyingObject(Ptr));
        if (!Slot || carriedIn(L, SI->getValueOperand(), Slot))
          return SyncLoopKind::None;
      } else if (isa<AtomicRMWInst>(I) || isa<FenceInst>(I)) {
        return SyncLoopKind::None; // it changes shared state: work, or a lock
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        if (isa<DbgInfoIntrinsic>(CB))
          continue;
        const Function *Callee = CB->getCalledFunction();
        if (Callee && Callee->getName() == "__kmpc_flush") {
          Reads = true;
          continue;
        }
        if (Callee && Callee->getName().startswith("__phaseprobe"))
          continue;
        return SyncLoopKind::None;
      } else if (I.mayWriteToMemory()) {
        return SyncLoopKind::None;
      }
    }
  return Reads ? SyncLoopKind::Spin : SyncLoopKind::None;
}

} // namespace phaseprobe
