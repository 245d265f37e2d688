//===- StreamSampling.cpp - Memory-stream sampling pass -------------------===//
//
// Every function that parallel code runs (outlined region bodies and
// functions with orphaned worksharing constructs, the *roots*, and the
// functions of the TU they call) gets a sampling copy, F.ppsampled. The
// program's own F stays as clang made it, so the optimizer treats it as in
// the plain build; only a root's entry changes:
//
//   entry:      if (--invocations[F] > 0) goto body          ; likely
//               if (__phaseprobe_invocation_begin2(&invocations[F], &next))
//                 return F.ppsampled(args...)                 ; noinline
//   body:       F, unchanged
//
// In a copy, direct calls to functions with a copy call the copy (other
// roots excepted: they decide for themselves), and each innermost loop L,
// with raw clang IR keeping locals in allocas so that only the loop's
// blocks need cloning and no SSA value crosses into them, becomes:
//
//   preheader:  sampled = 0; trip = 0
//               if (--countdown[L] > 0) goto header          ; likely
//   trigger:    n = __phaseprobe_burst_begin2(&countdown[L], &next)
//               if (n == 0) goto header
//               if (n == CONTROL) { sampled = 1; goto header }  ; timed, plain
//               sampled = 1; burst = n; goto header.clone
//   L:          unchanged, plus trip += 1 in every latch
//   L.clone:    a copy of L whose loads and stores first call
//               __phaseprobe_sample(&site, addr); its backedges go through
//   backedge:   if (--burst > 0) goto header.clone
//               __phaseprobe_burst_stop(); goto header       ; rest runs plain
//
// A loop with a short constant trip count (`for (m = 0; m < 5; m++)`) runs
// whole in its clone instead: handing over would give the original loop a
// second entry in mid-iteration, its trip count would no longer be a
// constant, and the optimizer would no longer unroll it fully nor vectorize
// the loop around it (4.4x the instructions in bt's bt_compute_rhs, with
// sampling off too). Such an execution is shorter than a burst anyway.
//   each exit:  if (sampled) __phaseprobe_burst_end2(&next, trip)
//
// Each of these calls answers in a slot of the caller (next), copied into
// the countdown after the call (Sampler::askRuntime), and every runtime
// entry point is declared to touch only the runtime's memory and its
// arguments: to the optimizer a call is then no write to the program's
// memory, and the copy keeps in registers what the program's code does.
//
// invocations[F] and countdown[L] are internal thread-local i64s, starting
// at 1 so the first invocation of a root and the first execution of a loop
// in every thread are sampled; the runtime sets how many to skip next
// (runtime/src/streams.h: ThreadSampler::beginInvocation, endExecution).
// Functions that cannot be entered through a copy (varargs, naked,
// returns_twice, inalloca/preallocated/swifterror arguments, blocks whose
// address is taken) are not sampled; copies that sample nothing are
// dropped, except those of internal functions that a kept copy calls (the
// original keeps its single call site, and with it its inlining).
// Loads and stores whose address is a stack slot (locals, which mem2reg puts
// in registers) are not sampled. A memcpy, memmove or memset of at most 256
// bytes is (clang copies a struct, `Pole p = poles[i]`, with one): as one
// access of its first word on each side that is program memory (accessesOf,
// below). Loops whose values are used after the loop or whose header has
// PHIs (clang's raw IR has neither) are left alone, as are loops with
// exception-handling pads.
//
//===----------------------------------------------------------------------===//
#include "StreamSampling.h"
#include "Compat.h"
#include "CounterTbaa.h"
#include "SyncLoops.h"

#include "phaseprobe/interface.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <algorithm>
#include <cstdint>
#include <string>

using namespace llvm;

namespace phaseprobe {
namespace {

/// One memory access of an instruction, as the runtime records it: its
/// address, bytes per access and direction.
struct Access {
  Value *Ptr;
  unsigned Bytes;
  bool Store;
};

/// Copies longer than this are bulk copies, which their first address does
/// not describe; clang's struct copies are shorter (RSBench's poles, 72 B).
constexpr std::uint64_t MaxCopyBytes = 256;

/// The accesses of \p I: a load's or a store's, an atomic update's (a load
/// and a store of its element: `#pragma omp atomic` on a histogram), or
/// both sides of a memcpy or memmove of constant length (a memset's
/// destination). Clang's raw IR
/// copies a struct with llvm.memcpy, and the fields the program then reads
/// are loads of a stack copy, so without this a loop that walks an array of
/// structs by value shows no stream at all (RSBench's pole loop: its 5 MiB
/// of poles, the phase's only data beyond L1, went unseen and the phase
/// unmatched). A copy is one access of its first word: the word's size is
/// the element size the uBs can walk (doubles for a struct of doubles), and
/// consecutive copies are the stride apart that the array's layout puts
/// them, so a uB of that stride touches the same cache lines.
SmallVector<Access, 2> accessesOf(Instruction &I, const DataLayout &DL) {
  SmallVector<Access, 2> Out;
  auto Bytes = [&](Type *Ty) { return unsigned(DL.getTypeStoreSize(Ty).getFixedSize()); };
  auto Update = [&](Value *Ptr, Type *Ty) {
    Out.push_back({Ptr, Bytes(Ty), false});
    Out.push_back({Ptr, Bytes(Ty), true});
  };
  if (auto *LI = dyn_cast<LoadInst>(&I)) {
    Out.push_back({LI->getPointerOperand(), Bytes(LI->getType()), false});
  } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
    Out.push_back({SI->getPointerOperand(), Bytes(SI->getValueOperand()->getType()), true});
  } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Update(RMW->getPointerOperand(), RMW->getValOperand()->getType());
  } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Update(CX->getPointerOperand(), CX->getNewValOperand()->getType());
  } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
    auto *Len = dyn_cast<ConstantInt>(MI->getLength());
    if (!Len || Len->isZero() || Len->getValue().ugt(MaxCopyBytes))
      return Out;
    std::uint64_t N = Len->getZExtValue();
    unsigned Word = unsigned(std::min<std::uint64_t>(8, N & -N)); // largest power of 2 dividing N
    if (auto *MT = dyn_cast<MemTransferInst>(MI))
      Out.push_back({MT->getRawSource(), Word, false});
    Out.push_back({MI->getRawDest(), Word, true});
  }
  return Out;
}

class Sampler {
public:
  explicit Sampler(Module &M) : M(M), Ctx(M.getContext()), DL(M.getDataLayout()) {}
  bool run();

private:
  SetVector<Function *> parallelCode(SetVector<Function *> &Roots);
  bool canTwin(const Function &F) const;
  void redirectCalls(Function &Twin, const DenseMap<Function *, Function *> &Twins,
                     const SetVector<Function *> &Roots);
  void enterTwinSometimes(Function &Root, Function &Twin);
  bool instrumentLoop(Function &F, BasicBlock *Header);
  bool worthSampling(const Value *Ptr, const Loop &L) const;
  bool invariantAddress(const Value *V, const Loop &L, unsigned Depth) const;
  Constant *siteFor(const Instruction &I, const Access &A, bool Outer);
  AllocaInst *iterationCounter(Function &F) const;
  void declareRuntime();
  CallInst *askRuntime(IRBuilder<> &B, FunctionCallee Fn, GlobalVariable *Countdown,
                       bool PassIdentity, ArrayRef<Value *> More = {});

  Module &M;
  LLVMContext &Ctx;
  const DataLayout &DL;
  FunctionCallee InvocationBegin, BurstBegin, Sample, BurstStop, BurstEnd;
  StructType *SiteTy = nullptr;
  StringMap<Constant *> Strings;
  unsigned Loops = 0, Sites = 0;
  MDNode *CounterTag = nullptr; // counterTbaaTag: the countdowns alias only themselves
  /// \p I, a load or store of phaseprobe's own counters, with CounterTag.
  Instruction *tagCounter(Instruction *I) const {
    if (CounterTag)
      I->setMetadata(LLVMContext::MD_tbaa, CounterTag);
    return I;
  }
};

void Sampler::declareRuntime() {
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  Type *Void = Type::getVoidTy(Ctx);
  PointerType *Ptr = compat::bytePtrTy(Ctx);
  PointerType *I64Ptr = compat::pointerTo(I64);
  SiteTy = StructType::get(Ctx, {I32, I32, Ptr});
  InvocationBegin = M.getOrInsertFunction("__phaseprobe_invocation_begin2", I32, I64Ptr, I64Ptr);
  BurstBegin = M.getOrInsertFunction("__phaseprobe_burst_begin2", I32, I64Ptr, I64Ptr);
  Sample = M.getOrInsertFunction("__phaseprobe_sample", Void, compat::pointerTo(SiteTy), Ptr);
  BurstStop = M.getOrInsertFunction("__phaseprobe_burst_stop", Void);
  BurstEnd = M.getOrInsertFunction("__phaseprobe_burst_end2", Void, I64Ptr, I64);
  // What the runtime touches, said to the optimizer: its own state, the
  // answer slot it is handed, the constant site it reads; never the
  // countdown (its address is an identity) nor the sampled address (only
  // its value is recorded). Unsaid, every call would write any memory the
  // program shares, and a sampling copy would reload around it what the
  // program's code keeps in registers: slower, and in a program that races
  // on a shared variable (NPB CG's loop index k, shared by its threads) a
  // different result, found with NPB CG class S at 2 threads.
  auto Declare = [](FunctionCallee C) { return dyn_cast<Function>(C.getCallee()); };
  for (FunctionCallee C : {InvocationBegin, BurstBegin})
    if (Function *F = Declare(C)) {
      compat::accessesOnlyOwnOrArgMemory(*F);
      F->addParamAttr(0, Attribute::ReadNone);
      F->addParamAttr(1, Attribute::WriteOnly);
      F->addParamAttr(1, Attribute::NoCapture);
    }
  if (Function *F = Declare(BurstEnd)) {
    compat::accessesOnlyOwnOrArgMemory(*F);
    F->addParamAttr(0, Attribute::WriteOnly);
    F->addParamAttr(0, Attribute::NoCapture);
  }
  if (Function *F = Declare(Sample)) {
    compat::accessesOnlyOwnOrArgMemory(*F);
    F->addParamAttr(0, Attribute::ReadOnly);
    F->addParamAttr(1, Attribute::ReadNone);
  }
  if (Function *F = Declare(BurstStop))
    compat::accessesOnlyOwnMemory(*F);
}

/// Calls one of the runtime's countdown entry points: the answer goes to a
/// slot of the calling function (primed with the countdown, which a
/// runtime that does not answer leaves as it was) and from there into the
/// countdown, so that the call itself writes nothing the program can see.
CallInst *Sampler::askRuntime(IRBuilder<> &B, FunctionCallee Fn, GlobalVariable *Countdown,
                              bool PassIdentity, ArrayRef<Value *> More) {
  Type *I64 = Type::getInt64Ty(Ctx);
  Function &F = *B.GetInsertBlock()->getParent();
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Slot = EB.CreateAlloca(I64, nullptr, "pp.next");
  B.CreateStore(tagCounter(B.CreateLoad(I64, Countdown)), Slot);
  SmallVector<Value *, 3> Args;
  if (PassIdentity)
    Args.push_back(Countdown);
  Args.push_back(Slot);
  Args.append(More.begin(), More.end());
  CallInst *Call = B.CreateCall(Fn, Args);
  tagCounter(B.CreateStore(B.CreateLoad(I64, Slot), Countdown));
  return Call;
}

/// Whether \p Name is a libomp entry point of a worksharing construct: a
/// function calling one runs (orphaned) inside some region, possibly one of
/// another translation unit.
static bool isWorksharingEntry(StringRef Name) {
  return Name.startswith("__kmpc_for_static_init") || Name.startswith("__kmpc_dispatch_init") ||
         Name.startswith("__kmpc_dist_for_static_init") || Name == "__kmpc_single" ||
         Name == "__kmpc_master" || Name == "__kmpc_masked";
}

/// The functions \p F calls directly (through pointer casts too).
static SmallVector<Function *, 8> directCallees(Function &F) {
  SmallVector<Function *, 8> Callees;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto *Callee = dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts()))
          Callees.push_back(Callee);
  return Callees;
}

/// Outlined region bodies (the function operand of __kmpc_fork_call and
/// __kmpc_fork_teams) and functions with orphaned worksharing constructs
/// (\p Roots: where parallel code starts) and, transitively, the defined
/// functions they call.
SetVector<Function *> Sampler::parallelCode(SetVector<Function *> &Roots) {
  SetVector<Function *> Set;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        Function *Callee = CB ? CB->getCalledFunction() : nullptr;
        if (!Callee)
          continue;
        if (isWorksharingEntry(Callee->getName())) {
          Set.insert(&F);
          continue;
        }
        if (CB->arg_size() < 3 ||
            (Callee->getName() != "__kmpc_fork_call" && Callee->getName() != "__kmpc_fork_teams"))
          continue;
        if (auto *Body = dyn_cast<Function>(CB->getArgOperand(2)->stripPointerCasts()))
          if (!Body->isDeclaration())
            Set.insert(Body);
      }
  Roots = Set;
  for (unsigned I = 0; I < Set.size(); ++I)
    for (Function *Callee : directCallees(*Set[I]))
      if (!Callee->isDeclaration() && !Callee->getName().startswith("__phaseprobe"))
        Set.insert(Callee);
  return Set;
}

/// Whether \p V, an address computed in raw IR, is the same in every
/// iteration of \p L: built from constants, arguments, values from outside
/// the loop, and loads of local variables the loop never writes (clang
/// reloads `i` and `a` from their stack slots at each use). Such accesses are
/// scalars after mem2reg/LICM (c[i][j] inside a k loop), not streams.
bool Sampler::invariantAddress(const Value *V, const Loop &L, unsigned Depth) const {
  V = V->stripPointerCasts();
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 16)
    return false;
  if (!L.contains(I))
    return true;
  if (auto *LI = dyn_cast<LoadInst>(I)) {
    const Value *P = LI->getPointerOperand()->stripPointerCasts();
    if (!invariantAddress(P, L, Depth + 1))
      return false;
    // Written in the loop (a local `p = p->next`, or memory of the loaded
    // type that might alias)? Then it varies.
    for (BasicBlock *BB : L.blocks())
      for (Instruction &J : *BB) {
        if (auto *SI = dyn_cast<StoreInst>(&J)) {
          if (SI->getPointerOperand()->stripPointerCasts() == P ||
              (!isa<AllocaInst>(P) &&
               !isa<AllocaInst>(getUnderlyingObject(SI->getPointerOperand(), 0)) &&
               SI->getValueOperand()->getType() == LI->getType()))
            return false;
        } else if (auto *CB = dyn_cast<CallBase>(&J)) {
          if (!CB->onlyReadsMemory())
            for (const Use &A : CB->args())
              if (A->stripPointerCasts() == P)
                return false;
        }
      }
    return true;
  }
  if (isa<GetElementPtrInst>(I) || isa<CastInst>(I) || isa<BinaryOperator>(I)) {
    for (const Use &Op : I->operands())
      if (!invariantAddress(Op, L, Depth + 1))
        return false;
    return true;
  }
  return false;
}

/// An access to program memory whose address moves through the loop:
/// not a stack slot (registers after mem2reg), not phaseprobe's own
/// thread-local counters, not a loop-invariant scalar.
bool Sampler::worthSampling(const Value *Ptr, const Loop &L) const {
  if (!Ptr || Ptr->getType()->getPointerAddressSpace() != 0)
    return false;
  const Value *Obj = getUnderlyingObject(Ptr, 0);
  if (isa<AllocaInst>(Obj))
    return false;
  // Only phaseprobe's own globals: a program's thread-local data (OpenMP
  // threadprivate, NPB EP's 1 MB x[]) is memory it streams through like any
  // other; leaving all TLS out left EP's phase without a stream, unmatched.
  if (auto *GV = dyn_cast<GlobalVariable>(Obj))
    if (GV->getName().startswith("__phaseprobe"))
      return false;
  return !invariantAddress(Ptr, L, 0);
}

Constant *Sampler::siteFor(const Instruction &I, const Access &A, bool Outer) {
  std::string Loc;
  if (const DebugLoc &D = I.getDebugLoc()) {
    StringRef File;
    if (auto *Scope = dyn_cast<DIScope>(D.getScope()))
      File = Scope->getFilename();
    // basename:line:col, like phase ids.
    if (D.getLine() && !File.empty())
      Loc = (sys::path::filename(File) + ":" + Twine(D.getLine()) + ":" + Twine(D.getCol())).str();
  }
  if (Loc.empty())
    Loc = (I.getFunction()->getName() + "#" + Twine(Sites)).str();
  ++Sites;
  Constant *&Str = Strings[Loc];
  if (!Str) {
    auto *Init = ConstantDataArray::getString(Ctx, Loc);
    auto *GV = new GlobalVariable(M, Init->getType(), true, GlobalValue::PrivateLinkage, Init,
                                  "__phaseprobe.site.loc");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    Str = ConstantExpr::getPointerCast(GV, compat::bytePtrTy(Ctx));
  }
  Type *I32 = Type::getInt32Ty(Ctx);
  Constant *Init = ConstantStruct::get(
      SiteTy, {ConstantInt::get(I32, A.Bytes),
               ConstantInt::get(I32, (A.Store ? PHASEPROBE_SITE_STORE : 0) |
                                         (Outer ? PHASEPROBE_SITE_OUTER : 0)),
               Str});
  // Not unnamed_addr: the address is the site's identity.
  return new GlobalVariable(M, SiteTy, true, GlobalValue::PrivateLinkage, Init,
                            "__phaseprobe.site");
}

/// The phase pass's function-local iteration counter: the i64 alloca whose
/// value the function adds to __phaseprobe_iterations (value names are gone
/// in release compilers, so it is found by that use, not by name).
AllocaInst *Sampler::iterationCounter(Function &F) const {
  GlobalVariable *G = M.getGlobalVariable("__phaseprobe_iterations");
  if (!G)
    return nullptr;
  for (User *U : G->users()) {
    auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || SI->getFunction() != &F || SI->getPointerOperand() != G)
      continue;
    auto *Add = dyn_cast<BinaryOperator>(SI->getValueOperand());
    if (!Add || Add->getOpcode() != Instruction::Add)
      continue;
    for (Value *Op : Add->operands())
      if (auto *LI = dyn_cast<LoadInst>(Op))
        if (auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand()))
          if (AI->getAllocatedType()->isIntegerTy(64))
            return AI;
  }
  return nullptr;
}

/// Executions of at most this many iterations run whole in the clone (the
/// runtime's default burst is 128 iterations).
constexpr std::int64_t ShortTrip = 128;

/// The last constant stored into \p Slot in \p BB or the blocks that lead
/// to it alone (clang's for-init sits in or just before the preheader).
const ConstantInt *constantStoredBefore(const BasicBlock *BB, const Value *Slot) {
  for (unsigned Depth = 0; BB && Depth < 4; ++Depth, BB = BB->getSinglePredecessor())
    for (auto I = BB->rbegin(); I != BB->rend(); ++I)
      if (auto *St = dyn_cast<StoreInst>(&*I))
        if (St->getPointerOperand() == Slot)
          return dyn_cast<ConstantInt>(St->getValueOperand());
  return nullptr;
}

/// Inner loops of at most this many iterations are sampled as part of the
/// loop around them: the optimizer unrolls them fully, and what the program
/// runs as its innermost loop is the one around them.
constexpr std::int64_t UnrolledTrip = 16;

/// Whether \p L, still in clang's raw form (its counter in a stack slot),
/// tests `slot <cmp> constant` in its header and the slot starts at a
/// constant at most \p Max away: a loop the optimizer can unroll fully.
bool shortConstantTrip(const Loop &L, const BasicBlock *Pre, std::int64_t Max = ShortTrip) {
  auto *Br = dyn_cast<BranchInst>(L.getHeader()->getTerminator());
  if (!Br || !Br->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return false;
  auto SlotOf = [](const Value *V) -> const Value * {
    if (auto *C = dyn_cast<CastInst>(V))
      V = C->getOperand(0);
    auto *Ld = dyn_cast<LoadInst>(V);
    return Ld && isa<AllocaInst>(Ld->getPointerOperand()) ? Ld->getPointerOperand() : nullptr;
  };
  for (unsigned Side = 0; Side < 2; ++Side) {
    const Value *Slot = SlotOf(Cmp->getOperand(Side));
    auto *Bound = dyn_cast<ConstantInt>(Cmp->getOperand(1 - Side));
    if (!Slot || !Bound)
      continue;
    const ConstantInt *Start = constantStoredBefore(Pre, Slot);
    if (!Start || Start->getBitWidth() > 64 || Bound->getBitWidth() > 64)
      return false;
    std::int64_t Span = Bound->getSExtValue() - Start->getSExtValue();
    return Span >= -Max && Span <= Max;
  }
  return false;
}

/// An inner loop the optimizer unrolls fully (see UnrolledTrip).
static bool unrolledInner(const Loop &S) {
  const BasicBlock *Pre = S.getLoopPreheader();
  return S.getSubLoops().empty() && syncLoopKind(S) == SyncLoopKind::None && Pre &&
         shortConstantTrip(S, Pre, UnrolledTrip);
}

/// Whether every inner loop of \p L (none, for an innermost loop) is
/// unrolled fully: \p L can be sampled with them.
static bool innerLoopsUnrolled(const Loop &L) {
  return all_of(L.getSubLoops(),
                [](const Loop *S) { return unrolledInner(*S) || isAtomicRetry(*S); });
}

/// The loops sampled as units: innermost loops, and loops whose inner loops
/// are all unrolled fully or compare-and-swap retries (then sampled with
/// them: an atomic update's retry loop is one access of the loop around it). LULESH's hourglass loop
/// over elements runs a 4-iteration loop whose loads of the element's
/// arrays do not move with it: sampled alone, it showed none of them.
static bool samplingUnit(const Loop &L) {
  if (syncLoopKind(L) != SyncLoopKind::None)
    return false;
  if (L.getSubLoops().empty())
    return !L.getParentLoop() || !samplingUnit(*L.getParentLoop());
  return innerLoopsUnrolled(L);
}

/// An unwind destination that ends the program: a landing pad block, with no
/// PHIs, from which unconditional branches lead to an `unreachable` (clang's
/// cleanups then `__clang_call_terminate`). C++ gives every call in an
/// OpenMP region whose callee may throw such a destination, since no
/// exception may leave the region; an exception there ends the program, so
/// a sampled loop left through it needs no end-of-execution report.
static bool terminatesOnUnwind(const BasicBlock *Pad) {
  if (!Pad->isLandingPad() || isa<PHINode>(Pad->front()))
    return false;
  const BasicBlock *BB = Pad;
  for (int Hops = 0; Hops < 8 && BB; ++Hops) {
    if (isa<UnreachableInst>(BB->getTerminator()))
      return true;
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (!Br || Br->isConditional())
      return false;
    BB = Br->getSuccessor(0);
  }
  return false;
}

/// formDedicatedExitBlocks without the exits that end the program: splitting
/// those would give the program's own code a second landing pad.
static void dedicateExits(Loop &L, DominatorTree &DT, LoopInfo &LI) {
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  for (BasicBlock *E : Exits) {
    if (terminatesOnUnwind(E))
      continue;
    SmallVector<BasicBlock *, 4> Inside, Outside;
    for (BasicBlock *P : predecessors(E))
      (L.contains(P) ? Inside : Outside).push_back(P);
    if (!Outside.empty())
      SplitBlockPredecessors(E, Inside, ".loopexit", &DT, &LI, nullptr, false);
  }
}

bool Sampler::instrumentLoop(Function &F, BasicBlock *Header) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  Loop *L = LI.getLoopFor(Header);
  if (!L || L->getHeader() != Header || !innerLoopsUnrolled(*L))
    return false;
  if (isa<PHINode>(Header->front()))
    return false;
  bool HasAccess = false;
  for (BasicBlock *BB : L->blocks()) {
    if (BB->isEHPad() || isa<CallBrInst>(BB->getTerminator()) ||
        isa<IndirectBrInst>(BB->getTerminator()))
      return false;
    if (auto *Inv = dyn_cast<InvokeInst>(BB->getTerminator()))
      if (L->contains(Inv->getUnwindDest()) || !terminatesOnUnwind(Inv->getUnwindDest()))
        return false;
    for (Instruction &I : *BB) {
      for (User *U : I.users())
        if (auto *UI = dyn_cast<Instruction>(U))
          if (!L->contains(UI))
            return false; // a value live after the loop
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (CB->hasFnAttr(Attribute::ReturnsTwice))
          return false;
      for (const Access &A : accessesOf(I, DL))
        HasAccess |= worthSampling(A.Ptr, *L);
    }
  }
  if (!HasAccess)
    return false;
  BasicBlock *Pre = L->getLoopPreheader();
  if (!Pre)
    Pre = InsertPreheaderForLoop(L, &DT, &LI, nullptr, false);
  if (!Pre || !isa<BranchInst>(Pre->getTerminator()))
    return false;
  dedicateExits(*L, DT, LI);
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  // The clone's invokes unwind to the same pads as the original's.
  erase_if(Exits, terminatesOnUnwind);
  for (BasicBlock *E : Exits)
    if (E->isEHPad())
      return false;

  Type *I1 = Type::getInt1Ty(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Type *I64 = Type::getInt64Ty(Ctx);
  unsigned N = Loops++;
  auto *Countdown = new GlobalVariable(
      M, I64, false, GlobalValue::InternalLinkage, ConstantInt::get(I64, 1),
      "__phaseprobe.countdown." + Twine(N), nullptr, GlobalValue::GeneralDynamicTLSModel);
  IRBuilder<> EB(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Sampled = EB.CreateAlloca(I1, nullptr, "__phaseprobe.sampled");
  AllocaInst *Start = EB.CreateAlloca(I64, nullptr, "__phaseprobe.start");
  AllocaInst *CloneCtr = EB.CreateAlloca(I64, nullptr, "__phaseprobe.clonectr");
  AllocaInst *Burst = EB.CreateAlloca(I32, nullptr, "__phaseprobe.burst");

  // Trip count: one per latch traversal, read from the phase pass's
  // iteration counter at loop entry and exit (a second counter in the loop
  // would be one more 64-bit recurrence). Without one, or where that counter
  // counts the inner loops' iterations, count here.
  AllocaInst *Counter = iterationCounter(F);
  AllocaInst *Trip = Counter;
  if (!Counter || !L->getSubLoops().empty()) {
    Trip = EB.CreateAlloca(I64, nullptr, "__phaseprobe.trip");
    EB.CreateStore(ConstantInt::get(I64, 0), Trip);
    SmallVector<BasicBlock *, 4> Latches;
    L->getLoopLatches(Latches);
    for (BasicBlock *Latch : Latches) {
      IRBuilder<> B(Latch->getTerminator());
      addToCounter(B, Trip, ConstantInt::get(I64, 1), nullptr);
    }
  }
  if (!Counter)
    Counter = Trip;

  // The clone.
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : L->blocks()) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".ppclone", &F);
    VMap[BB] = C;
    Clones.push_back(C);
  }
  remapInstructionsInBlocks(Clones, VMap);
  // The clone counts its iterations in a counter of its own, added to the
  // real one at the loop exit. Were the counter's value to flow from the
  // clone's recurrence into the original loop (even once, at the hand-over),
  // the optimizer could no longer compute the original's exit value in
  // closed form, and the counter would stay in the loop as a 64-bit
  // reduction (halving the vectorization factor of float loops).
  {
    SmallPtrSet<BasicBlock *, 16> CloneSet(Clones.begin(), Clones.end());
    SmallVector<Use *, 8> Uses;
    for (Use &U : Counter->uses())
      if (auto *UI = dyn_cast<Instruction>(U.getUser()))
        if (CloneSet.count(UI->getParent()))
          Uses.push_back(&U);
    for (Use *U : Uses)
      U->set(CloneCtr);
  }
  auto HandOver = [&](IRBuilder<> &B) {
    addToCounter(B, Counter, B.CreateLoad(I64, CloneCtr), nullptr);
    B.CreateStore(ConstantInt::get(I64, 0), CloneCtr);
  };
  // Each access to sample (an instruction in the clone and which of its
  // accesses), and whether its address stays put in the unrolled inner loop
  // it sits in (once per iteration of L).
  DenseMap<std::pair<Instruction *, unsigned>, bool> ToSample;
  auto *CloneHeader = cast<BasicBlock>(VMap[Header]);

  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      SmallVector<Access, 2> As = accessesOf(I, DL);
      for (unsigned K = 0; K < As.size(); ++K)
        if (worthSampling(As[K].Ptr, *L)) {
          const Loop *In = LI.getLoopFor(BB);
          bool Outer = In != L && invariantAddress(As[K].Ptr, *In, 0);
          ToSample[{cast<Instruction>(VMap[&I]), K}] = Outer;
        }
    }
  struct ToEmit {
    Instruction *I;
    Access A;
    bool Outer;
  };
  for (BasicBlock *C : Clones) {
    SmallVector<ToEmit, 16> Accesses;
    for (Instruction &I : *C) {
      SmallVector<Access, 2> As = accessesOf(I, DL);
      for (unsigned K = 0; K < As.size(); ++K)
        if (auto It = ToSample.find({&I, K}); It != ToSample.end())
          Accesses.push_back({&I, As[K], It->second});
    }
    // The block's samples go at its end, not before each access: between
    // the program's own loads and stores they made the block twice as long
    // as the plain build's, and past the optimizer's scan limits a value the
    // plain build forwards from a store was loaded again. In a program that
    // races on a shared scalar that is another result: NPB BT class W at 2
    // threads (lhsx's tmp3, written by every thread) failed its verification.
    // The runtime needs each site's addresses in order, not the sites'.
    for (const ToEmit &S : Accesses) {
      IRBuilder<> B(C->getTerminator());
      Value *Addr = B.CreatePointerCast(S.A.Ptr, compat::bytePtrTy(Ctx));
      B.CreateCall(Sample, {siteFor(*S.I, S.A, S.Outer), Addr})->setDebugLoc(S.I->getDebugLoc());
    }
    // The original loop's identity stays with the original.
    C->getTerminator()->setMetadata(LLVMContext::MD_loop, nullptr);
  }

  // The clone is never vectorized nor unrolled: each sampled access is one
  // element's address.
  auto CloneLoopID = [&]() {
    MDNode *Self = MDNode::getDistinct(Ctx, {nullptr});
    MDNode *NoVec = MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.vectorize.enable"),
                                      ConstantAsMetadata::get(ConstantInt::getFalse(Ctx))});
    MDNode *NoUnroll = MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.unroll.disable")});
    MDNode *LoopID = MDNode::getDistinct(Ctx, {Self, NoVec, NoUnroll});
    LoopID->replaceOperandWith(0, LoopID);
    return LoopID;
  };
  if (shortConstantTrip(*L, Pre)) {
    // Runs whole in the clone: its own backedges stay.
    for (BasicBlock *C : Clones) {
      Instruction *T = C->getTerminator();
      for (unsigned S = 0; S < T->getNumSuccessors(); ++S)
        if (T->getSuccessor(S) == CloneHeader)
          T->setMetadata(LLVMContext::MD_loop, CloneLoopID());
    }
  } else {
    // Backedges of the clone count the burst down, then hand over.
    BasicBlock *Back = BasicBlock::Create(Ctx, "pp.backedge", &F);
    BasicBlock *Stop = BasicBlock::Create(Ctx, "pp.stop", &F);
    for (BasicBlock *C : Clones) {
      Instruction *T = C->getTerminator();
      for (unsigned S = 0; S < T->getNumSuccessors(); ++S)
        if (T->getSuccessor(S) == CloneHeader)
          T->setSuccessor(S, Back);
    }
    IRBuilder<> B(Back);
    Value *Left = B.CreateSub(B.CreateLoad(I32, Burst), ConstantInt::get(I32, 1));
    B.CreateStore(Left, Burst);
    BranchInst *Br =
        B.CreateCondBr(B.CreateICmpSGT(Left, ConstantInt::get(I32, 0)), CloneHeader, Stop);
    Br->setMetadata(LLVMContext::MD_loop, CloneLoopID());
    IRBuilder<> SB(Stop);
    SB.CreateCall(BurstStop);
    SB.CreateBr(Header);
  }

  // Exits: PHIs learn the clone's edges, then the end-of-execution report.
  for (BasicBlock *E : Exits) {
    for (PHINode &P : E->phis())
      for (unsigned I = 0, NI = P.getNumIncomingValues(); I < NI; ++I) {
        BasicBlock *In = P.getIncomingBlock(I);
        if (!L->contains(In))
          continue;
        Value *V = P.getIncomingValue(I);
        auto It = VMap.find(V);
        Value *NV = It != VMap.end() ? static_cast<Value *>(It->second) : V;
        P.addIncoming(NV, cast<BasicBlock>(VMap[In]));
      }
    IRBuilder<> B(&*E->getFirstInsertionPt());
    Value *Was = B.CreateLoad(I1, Sampled);
    Instruction *Then = SplitBlockAndInsertIfThen(Was, &*B.GetInsertPoint(), false,
                                                  MDBuilder(Ctx).createBranchWeights(1, 1000));
    IRBuilder<> TB(Then);
    HandOver(TB);
    Value *Count = TB.CreateSub(TB.CreateLoad(I64, Trip), TB.CreateLoad(I64, Start));
    askRuntime(TB, BurstEnd, Countdown, false, {Count});
  }

  // Preheader: the countdown, and the way into the clone.
  BasicBlock *Trigger = BasicBlock::Create(Ctx, "pp.trigger", &F);
  BasicBlock *Asked = BasicBlock::Create(Ctx, "pp.asked", &F);
  BasicBlock *Control = BasicBlock::Create(Ctx, "pp.control", &F);
  BasicBlock *Enter = BasicBlock::Create(Ctx, "pp.enter", &F);
  {
    Instruction *Old = Pre->getTerminator();
    IRBuilder<> B(Old);
    B.CreateStore(ConstantInt::getFalse(Ctx), Sampled);
    B.CreateStore(B.CreateLoad(I64, Trip), Start);
    Value *Left = addToCounter(B, Countdown, ConstantInt::get(I64, -1), CounterTag);
    B.CreateCondBr(B.CreateICmpSGT(Left, ConstantInt::get(I64, 0)), Header, Trigger,
                   MDBuilder(Ctx).createBranchWeights(1000, 1));
    Old->eraseFromParent();
    IRBuilder<> TB(Trigger);
    Value *Len = askRuntime(TB, BurstBegin, Countdown, true);
    TB.CreateCondBr(TB.CreateICmpNE(Len, ConstantInt::get(I32, 0)), Asked, Header);
    IRBuilder<> BB(Asked);
    BB.CreateCondBr(BB.CreateICmpEQ(Len, ConstantInt::get(I32, PHASEPROBE_BURST_CONTROL)), Control,
                    Enter);
    // A control execution: the plain loop, whose end is reported.
    IRBuilder<> CB(Control);
    CB.CreateStore(ConstantInt::getTrue(Ctx), Sampled);
    CB.CreateStore(ConstantInt::get(I64, 0), CloneCtr);
    CB.CreateBr(Header);
    IRBuilder<> NB(Enter);
    NB.CreateStore(ConstantInt::getTrue(Ctx), Sampled);
    NB.CreateStore(ConstantInt::get(I64, 0), CloneCtr);
    NB.CreateStore(Len, Burst);
    NB.CreateBr(CloneHeader);
  }
  return true;
}

/// Whether \p F can have a sampling copy that its callers (or, for a root,
/// its own entry) switch to: a definition whose arguments can be forwarded
/// as they are.
bool Sampler::canTwin(const Function &F) const {
  if (F.isDeclaration() || F.getName().startswith("__phaseprobe") || F.isVarArg() ||
      F.hasFnAttribute(Attribute::Naked) || F.hasFnAttribute(Attribute::ReturnsTwice))
    return false;
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() || A.hasSwiftErrorAttr())
      return false;
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return false;
  return true;
}

/// Direct calls in \p Twin to functions that have a sampling copy call the
/// copy: a sampled invocation is sampled all the way down, except into
/// other roots, which decide for themselves (had a root's copy been called
/// from its callers' copies as well, it would be sampled in its callers'
/// sampled invocations and in its own: twice the share it stands for).
void Sampler::redirectCalls(Function &Twin, const DenseMap<Function *, Function *> &Twins,
                            const SetVector<Function *> &Roots) {
  for (BasicBlock &BB : Twin)
    for (Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      Value *Called = CB->getCalledOperand();
      auto *Callee = dyn_cast<Function>(Called->stripPointerCasts());
      auto It = Twins.find(Callee);
      if (It == Twins.end() || Roots.count(Callee))
        continue;
      CB->setCalledOperand(ConstantExpr::getPointerCast(It->second, Called->getType()));
    }
}

/// \p Root's entry: one invocation in PHASEPROBE_SAMPLE_INVOCATIONS (asked
/// when a thread-local countdown reaches zero) runs \p Twin instead.
void Sampler::enterTwinSometimes(Function &Root, Function &Twin) {
  Type *I32 = Type::getInt32Ty(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *Countdown = new GlobalVariable(
      M, I64, false, GlobalValue::InternalLinkage, ConstantInt::get(I64, 1),
      "__phaseprobe.invocations." + Root.getName(), nullptr,
      GlobalValue::GeneralDynamicTLSModel);
  // The static allocas stay in the entry block (mem2reg promotes only
  // those), ahead of the test; everything else moves to the plain body.
  BasicBlock &Entry = Root.getEntryBlock();
  SmallVector<AllocaInst *, 16> Allocas;
  for (Instruction &I : Entry)
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->isStaticAlloca())
        Allocas.push_back(AI);
  Instruction *First = &*Entry.getFirstInsertionPt();
  for (AllocaInst *AI : Allocas)
    AI->moveBefore(First);
  Instruction *SplitAt = &*Entry.getFirstInsertionPt();
  while (isa<AllocaInst>(SplitAt))
    SplitAt = SplitAt->getNextNode();
  BasicBlock *Body = Entry.splitBasicBlock(SplitAt, "pp.plain");
  BasicBlock *Ask = BasicBlock::Create(Ctx, "pp.ask", &Root);
  BasicBlock *Sampled = BasicBlock::Create(Ctx, "pp.sampled", &Root);

  // Whether the thread runs a sampling copy, for the runtime to count the
  // iterations its samples stand among: 1 around the copy, 0 in the plain
  // body (a root run plain inside another root's copy samples nothing), the
  // caller's value again at every return.
  GlobalVariable *InCopy = runtimeCounter(M, "__phaseprobe_in_copy");
  SmallVector<ReturnInst *, 4> PlainReturns;
  for (BasicBlock &BB : Root) // the new blocks have no terminator yet
    if (auto *R = dyn_cast_or_null<ReturnInst>(BB.getTerminator()))
      PlainReturns.push_back(R);

  Entry.getTerminator()->eraseFromParent();
  IRBuilder<> B(&Entry);
  LoadInst *Caller = B.CreateLoad(I64, InCopy, "pp.incopy");
  tagCounter(Caller);
  auto SetInCopy = [&](IRBuilder<> &At, Value *V) { tagCounter(At.CreateStore(V, InCopy)); };
  for (ReturnInst *R : PlainReturns) {
    IRBuilder<> RB(R);
    SetInCopy(RB, Caller);
  }
  {
    IRBuilder<> PB(&*Body->getFirstInsertionPt());
    SetInCopy(PB, ConstantInt::get(I64, 0));
  }
  Value *Left = addToCounter(B, Countdown, ConstantInt::get(I64, -1), CounterTag);
  B.CreateCondBr(B.CreateICmpSGT(Left, ConstantInt::get(I64, 0)), Body, Ask,
                 MDBuilder(Ctx).createBranchWeights(1000, 1));
  IRBuilder<> AB(Ask);
  Value *Yes = askRuntime(AB, InvocationBegin, Countdown, true);
  AB.CreateCondBr(AB.CreateICmpNE(Yes, ConstantInt::get(I32, 0)), Sampled, Body);
  IRBuilder<> SB(Sampled);
  SmallVector<Value *, 8> Args;
  for (Argument &A : Root.args())
    Args.push_back(&A);
  SetInCopy(SB, ConstantInt::get(I64, 1));
  CallInst *Call = SB.CreateCall(Twin.getFunctionType(), &Twin, Args);
  Call->setCallingConv(Twin.getCallingConv());
  Call->setAttributes(Twin.getAttributes());
  SetInCopy(SB, Caller);
  // The plain function must stay as small as it was, for its callers'
  // inlining decisions and its own optimization.
  Twin.addFnAttr(Attribute::NoInline);
  Call->addFnAttr(Attribute::NoInline);
  if (DISubprogram *SP = Root.getSubprogram())
    Call->setDebugLoc(DILocation::get(Ctx, SP->getScopeLine(), 0, SP));
  if (Root.getReturnType()->isVoidTy())
    SB.CreateRetVoid();
  else
    SB.CreateRet(Call);
}

bool Sampler::run() {
  SetVector<Function *> Roots;
  SetVector<Function *> Code = parallelCode(Roots);
  if (Code.empty())
    return false;
  declareRuntime();
  CounterTag = counterTbaaTag(M);
  // Sampling copies: the program's own functions stay as the plain build
  // made them, apart from one countdown at the entry of each root. Cloning
  // loops in place had made the program itself slower (NPB BT: 13% more
  // instructions with sampling off): the countdowns and copies inside loop
  // nests stopped the optimizer from vectorizing the loops around them, and
  // small functions with loops no longer fit the inliner's budget.
  DenseMap<Function *, Function *> Twins;
  for (Function *F : Code) {
    if (!canTwin(*F))
      continue;
    // Internal, outside F's comdat (it must not vanish with F's copy), and
    // with a debug-info subprogram of its own (two functions sharing one
    // break the DWARF writer): GlobalChanges clones the subprogram.
    Function *T = Function::Create(F->getFunctionType(), GlobalValue::InternalLinkage,
                                   F->getAddressSpace(), F->getName() + ".ppsampled", &M);
    ValueToValueMapTy VMap;
    auto To = T->arg_begin();
    for (Argument &A : F->args()) {
      To->setName(A.getName());
      VMap[&A] = &*To++;
    }
    SmallVector<ReturnInst *, 8> Returns;
    CloneFunctionInto(T, F, VMap, CloneFunctionChangeType::GlobalChanges, Returns);
    T->setLinkage(GlobalValue::InternalLinkage);
    T->setVisibility(GlobalValue::DefaultVisibility);
    T->setDLLStorageClass(GlobalValue::DefaultStorageClass);
    T->setComdat(nullptr);
    // clang marks outlined region bodies always-inline; the copy must not
    // be pulled back into the plain function its root switches from.
    T->removeFnAttr(Attribute::AlwaysInline);
    Twins[F] = T;
  }
  if (Twins.empty())
    return false;

  // In Code's order, not the map's: countdown and site numbering must not
  // depend on pointer values (the same source gives the same object).
  DenseMap<Function *, bool> Useful; // instruments a loop, or calls a copy that does
  for (Function *F : Code) {
    Function *T = Twins.lookup(F);
    if (!T)
      continue;
    redirectCalls(*T, Twins, Roots);
    // Collect headers first: instrumenting a loop changes the CFG, so each
    // loop is found again in a fresh LoopInfo.
    // A unit with inner loops that cannot be sampled whole (an EH pad in
    // it, say) falls back to its inner loops.
    SmallVector<std::pair<BasicBlock *, SmallVector<BasicBlock *, 2>>, 8> Units;
    {
      DominatorTree DT(*T);
      LoopInfo LI(DT);
      for (Loop *L : LI.getLoopsInPreorder())
        if (samplingUnit(*L)) {
          Units.emplace_back(L->getHeader(), SmallVector<BasicBlock *, 2>());
          for (Loop *S : L->getSubLoops())
            Units.back().second.push_back(S->getHeader());
        }
    }
    bool Any = false;
    for (auto &[H, Inner] : Units)
      if (instrumentLoop(*T, H))
        Any = true;
      else
        for (BasicBlock *IH : Inner)
          Any |= instrumentLoop(*T, IH);
    Useful[T] = Any;
  }
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (auto &[F, T] : Twins) {
      if (Useful[T])
        continue;
      for (Function *Callee : directCallees(*T))
        if (Useful.lookup(Callee))
          Useful[T] = Grew = true;
    }
  }
  // A copy with nothing to sample stays when it is the copy of an internal
  // function that a kept copy calls: sending that call back to the original
  // gives the original a second call site, and an internal function with
  // one is what the inliner inlines at any size (LULESH's per-element
  // helpers went out of line: LULESH -s 30 with sampling off, +6.5% -> +5.0%
  // instructions over plain, bench/results/overhead-2026-11-24-lulesh-single-call-off.txt).
  DenseMap<Function *, Function *> OriginalOf;
  DenseSet<Function *> Kept;
  for (auto &[F, T] : Twins) {
    OriginalOf[T] = F;
    if (Useful[T])
      Kept.insert(T);
  }
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (auto &[F, T] : Twins) {
      if (!Kept.count(T))
        continue;
      for (Function *Callee : directCallees(*T)) {
        Function *Orig = OriginalOf.lookup(Callee);
        if (Orig && Orig->hasLocalLinkage() && Kept.insert(Callee).second)
          Grew = true;
      }
    }
  }
  // The other copies go; calls to them go back to the original.
  for (Function *F : Code) {
    Function *T = Twins.lookup(F);
    if (T && !Kept.count(T)) {
      T->replaceAllUsesWith(ConstantExpr::getPointerCast(F, T->getType()));
      T->eraseFromParent();
      Twins.erase(F);
    }
  }
  for (Function *R : Roots)
    if (Function *T = Twins.lookup(R))
      enterTwinSometimes(*R, *T);
  return true;
}

} // namespace

PreservedAnalyses StreamSamplingPass::run(Module &M, ModuleAnalysisManager &) {
  return Sampler(M).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace phaseprobe
