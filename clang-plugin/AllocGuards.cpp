//===- AllocGuards.cpp - Tell the runtime of memory allocated under a test -===//
#include "AllocGuards.h"
#include "Compat.h"
#include "RuntimeRefs.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace phaseprobe {
namespace {

/// Where code that runs right after \p I returns goes: after a call, at
/// the start of an invoke's normal destination when only it leads there;
/// null where neither holds.
Instruction *afterCall(CallBase &I) {
  auto *Inv = dyn_cast<InvokeInst>(&I);
  if (!Inv)
    return I.getNextNode();
  BasicBlock *To = Inv->getNormalDest();
  return To->getSinglePredecessor() ? &*To->getFirstInsertionPt() : nullptr;
}

/// The bytes allocator call \p A asks for, as an i64.
Value *requestedBytes(CallBase &A, IRBuilder<> &B) {
  StringRef N = A.getCalledFunction()->getName();
  Type *I64 = B.getInt64Ty();
  auto Arg = [&](unsigned I) { return B.CreateZExtOrTrunc(A.getArgOperand(I), I64); };
  if (N == "calloc")
    return B.CreateMul(Arg(0), Arg(1));
  if (N == "realloc" || N == "aligned_alloc")
    return Arg(1);
  return Arg(0); // malloc, new, new[]
}

} // namespace

void tellGuardedAllocs(Module &M, const std::vector<ThreadBranchReport::GuardedAlloc> &Allocs) {
  if (Allocs.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = compat::bytePtrTy(Ctx), *I64 = Type::getInt64Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Function *Note = weakRuntimeFunction(M, "__phaseprobe_alloc_note", {Ptr, I64});
  Function *Guarded =
      weakRuntimeFunction(M, "__phaseprobe_guarded_alloc", {Ptr, compat::pointerTo(Ptr), I32});

  StringPool Strings(M);
  // The guarded calls first: a note inserted after the same allocator call
  // later lands before the runtime is told.
  for (const ThreadBranchReport::GuardedAlloc &G : Allocs) {
    Instruction *At = afterCall(*G.call);
    if (!At)
      continue;
    std::vector<Constant *> Tests;
    for (const std::string &T : G.tests)
      Tests.push_back(Strings.get(T));
    IRBuilder<> B(At);
    callIfResolved(At, Guarded,
                   {B.CreatePointerCast(G.call, Ptr),
                    constArrayPtr(M, Ptr, Tests, "__phaseprobe.alloc_tests"),
                    ConstantInt::get(I32, Tests.size())},
                   G.call->getDebugLoc());
  }
  SmallPtrSet<CallBase *, 8> Noted;
  for (const ThreadBranchReport::GuardedAlloc &G : Allocs)
    for (CallBase *A : G.allocations) {
      Instruction *At = Noted.insert(A).second ? afterCall(*A) : nullptr;
      if (!At)
        continue;
      IRBuilder<> B(At);
      Value *P = B.CreatePointerCast(A, Ptr);
      callIfResolved(At, Note, {P, requestedBytes(*A, B)}, A->getDebugLoc());
    }
}

} // namespace phaseprobe
