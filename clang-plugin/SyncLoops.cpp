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

// Calls a waiting thread makes while it polls; they change nothing another
// thread could see. `omp flush` makes the next plain load read what other
// threads wrote; so does a call that gives the core away (the C library's
// are opaque: compiler barriers); a pause hint only slows the poll down.
enum class WaitCall { NotOne, Flush, GiveAway, Hint };

WaitCall waitCall(const Function *Callee) {
  if (!Callee)
    return WaitCall::NotOne;
  StringRef N = Callee->getName();
  if (N == "__kmpc_flush")
    return WaitCall::Flush;
  if (N == "sched_yield" || N == "pthread_yield" || N == "thrd_yield" || N == "usleep" ||
      N == "nanosleep" || N == "sleep")
    return WaitCall::GiveAway;
  // _mm_pause / __builtin_ia32_pause, and AArch64's yield hint.
  if (N == "llvm.x86.sse2.pause" || N == "llvm.aarch64.hint")
    return WaitCall::Hint;
  return WaitCall::NotOne;
}

} // namespace

SyncLoopKind syncLoopKind(const Loop &L) {
  bool Reads = false, GivesAway = false;
  SmallVector<BasicBlock *, 16> Own;
  for (BasicBlock *BB : L.blocks())
    if (none_of(L.getSubLoops(), [&](const Loop *S) { return S->contains(BB); }))
      Own.push_back(BB);
  for (BasicBlock *BB : Own)
    for (Instruction &I : *BB)
      if (isa<AtomicCmpXchgInst>(I))
        return SyncLoopKind::Retry;
  for (BasicBlock *BB : Own)
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
        if (isa<DbgInfoIntrinsic>(CB) || CB->isLifetimeStartOrEnd())
          continue;
        const Function *Callee = CB->getCalledFunction();
        if (WaitCall W = waitCall(Callee); W != WaitCall::NotOne) {
          Reads |= W != WaitCall::Hint;
          GivesAway |= W == WaitCall::GiveAway;
          continue;
        }
        if (Callee && Callee->getName().startswith("__phaseprobe"))
          continue;
        return SyncLoopKind::None;
      } else if (I.mayWriteToMemory()) {
        return SyncLoopKind::None;
      }
    }
  if (!Reads)
    return SyncLoopKind::None;
  return GivesAway ? SyncLoopKind::Yield : SyncLoopKind::Spin;
}

bool isAtomicRetry(const Loop &L) {
  return L.isInnermost() && syncLoopKind(L) == SyncLoopKind::Retry;
}

bool onlyRetriesInside(const Loop &L) {
  return all_of(L.getSubLoops(), [](const Loop *S) { return isAtomicRetry(*S); });
}

} // namespace phaseprobe
