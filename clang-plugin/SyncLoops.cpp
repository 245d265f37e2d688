//===- SyncLoops.cpp - Loops that synchronize threads rather than work ----===//
#include "SyncLoops.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace phaseprobe {

namespace {

// phaseprobe's own counters: its TLS globals and the allocas the
// instrumentation adds (named __phaseprobe.*, kept by function cloning).
bool isPhaseprobes(const Value *Ptr) {
  const Value *Base = getUnderlyingObject(Ptr);
  return (isa<AllocaInst>(Base) || isa<GlobalValue>(Base)) &&
         Base->getName().startswith("__phaseprobe");
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
        // Any store of the program's, a local's included, is loop state
        // (an index, an accumulator): `s += vol[i]` reads volatile memory
        // but is a loop over data, not a wait.
        if (SI->isVolatile() || SI->isAtomic() || !isPhaseprobes(SI->getPointerOperand()))
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
