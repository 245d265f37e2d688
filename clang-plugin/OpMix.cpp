//===- OpMix.cpp - The arithmetic a construct's loops do, by kind ---------===//
#include "OpMix.h"
#include "SyncLoops.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace phaseprobe {

OpMix &OpMix::operator+=(const OpMix &O) {
  add += O.add;
  mul += O.mul;
  div += O.div;
  sqrt += O.sqrt;
  math += O.math;
  return *this;
}

namespace {

// Calls deeper than this are not followed: a helper of a helper of a
// helper is still counted, and a large call graph stays cheap to walk.
constexpr unsigned MaxDepth = 4;

enum class MathKind { None, FusedMulAdd, Sqrt, Other };

MathKind mathKind(const Function &Callee) {
  switch (Callee.getIntrinsicID()) {
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return MathKind::FusedMulAdd;
  case Intrinsic::sqrt:
    return MathKind::Sqrt;
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::log:
  case Intrinsic::log2:
  case Intrinsic::log10:
  case Intrinsic::pow:
  case Intrinsic::powi:
  case Intrinsic::sin:
  case Intrinsic::cos:
    return MathKind::Other;
  case Intrinsic::not_intrinsic:
    break;
  default:
    return MathKind::None; // fabs, copysign, minnum, ...: not arithmetic worth a kind
  }
  StringRef N = Callee.getName();
  // The C library's, in double, float and long double.
  StringRef Base = N;
  if (N.size() > 1 && (N.endswith("f") || N.endswith("l")) && N != "modf" && N != "erf")
    Base = N.drop_back();
  if (Base == "sqrt")
    return MathKind::Sqrt;
  if (Base == "fma")
    return MathKind::FusedMulAdd;
  return StringSwitch<MathKind>(Base)
      .Cases("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", MathKind::Other)
      .Cases("pow", "cbrt", "hypot", "sin", "cos", "tan", MathKind::Other)
      .Cases("asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", MathKind::Other)
      .Cases("erf", "erfc", "tgamma", "lgamma", "fmod", "remainder", MathKind::Other)
      .Default(MathKind::None);
}

uint32_t lanes(const Type *T) {
  if (const auto *V = dyn_cast<FixedVectorType>(T))
    return V->getNumElements();
  return 1;
}

// One instruction's operations (a call to a defined function: its callee's
// are the caller's business).
void countOps(const Instruction &I, OpMix &M) {
  uint32_t N = lanes(I.getType());
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
    M.add += N;
    return;
  case Instruction::FMul:
    M.mul += N;
    return;
  case Instruction::FDiv:
  case Instruction::FRem:
    M.div += N;
    return;
  default:
    break;
  }
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  if (!Callee)
    return;
  switch (mathKind(*Callee)) {
  case MathKind::FusedMulAdd:
    M.add += N;
    M.mul += N;
    break;
  case MathKind::Sqrt:
    M.sqrt += N;
    break;
  case MathKind::Other:
    M.math += N;
    break;
  case MathKind::None:
    break;
  }
}

} // namespace

OpMix OpMixCounter::blocks(Function &F, const SmallPtrSetImpl<BasicBlock *> &Blocks,
                           unsigned Depth) {
  LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
  bool AnyLoop = llvm::any_of(Blocks, [&](BasicBlock *BB) { return LI.getLoopFor(BB); });
  DenseMap<const Loop *, SyncLoopKind> Kinds; // syncLoopKind once per loop, not per block
  auto KindOf = [&](const Loop &L) {
    auto [It, New] = Kinds.try_emplace(&L, SyncLoopKind::None);
    if (New)
      It->second = syncLoopKind(L);
    return It->second;
  };
  OpMix M;
  for (BasicBlock *BB : Blocks) {
    const Loop *L = LI.getLoopFor(BB);
    // Code outside the loops runs once per construct, the loops' bodies
    // once per iteration: only the innermost bodies make the mix, and what
    // the loops call.
    if (AnyLoop && !L)
      continue;
    // A compare-and-swap retry (an atomic reduction's combine) or a spin
    // wait synchronizes; its turns are no iterations, its operations none
    // of the work's. But a retry that is all a work loop has inside
    // (`#pragma omp atomic` on `h[idx[i]] += v[i]`, a double) is that
    // loop's update: its one winning turn per iteration is the work's.
    const Loop *Work = L;
    if (L && L->isInnermost() && KindOf(*L) != SyncLoopKind::None) {
      const Loop *P = L->getParentLoop();
      if (!P || KindOf(*L) != SyncLoopKind::Retry || !onlyRetriesInside(*P))
        continue;
      Work = P;
    }
    bool Body = !AnyLoop || onlyRetriesInside(*Work);
    for (Instruction &I : *BB) {
      if (Body)
        countOps(I, M);
      auto *CB = dyn_cast<CallBase>(&I);
      Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (Callee && !Callee->isDeclaration() && Depth < MaxDepth)
        M += function(*Callee, Depth + 1);
    }
  }
  return M;
}

OpMix OpMixCounter::function(Function &F, unsigned Depth) {
  if (F.isDeclaration() || Open.count(&F))
    return {};
  // By depth too: a function first reached near MaxDepth counts fewer of
  // its callees than the same function reached from a construct.
  if (auto It = Memo.find({&F, Depth}); It != Memo.end())
    return It->second;
  Open.insert(&F);
  SmallPtrSet<BasicBlock *, 32> All;
  for (BasicBlock &BB : F)
    All.insert(&BB);
  OpMix M = blocks(F, All, Depth);
  Open.erase(&F);
  Memo[{&F, Depth}] = M;
  return M;
}

OpMix OpMixCounter::ofConstruct(CallBase &Init, CallBase *Fini) {
  BasicBlock *Stop = Fini ? Fini->getParent() : nullptr;
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 16> Work{Init.getParent()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second || BB == Stop)
      continue;
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  return blocks(*Init.getFunction(), Seen, 0);
}

} // namespace phaseprobe
