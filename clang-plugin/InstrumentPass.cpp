//===- InstrumentPass.cpp - OpenMP phase instrumentation pass -------------===//
//
// How constructs are recognised (clang 14's OpenMP lowering):
//  - a region is a call __kmpc_fork_call(ident, argc, outlined, ...) (or
//    __kmpc_fork_teams); with an if() clause clang also emits
//    __kmpc_serialized_parallel + a direct call of the outlined function +
//    __kmpc_end_serialized_parallel at the same location;
//  - a worksharing construct is __kmpc_for_static_init_* ... fini (static
//    loops and sections; ident flags 0x400 = sections, 0x800 = distribute),
//    __kmpc_dispatch_init_* ... dispatch_next_* returning 0 (dynamic, guided,
//    runtime, ordered), __kmpc_single/end_single, __kmpc_master/end_master,
//    __kmpc_masked/end_masked;
//  - the ident's psource ";file;function;line;col;;" is the pragma's source
//    location (real only when clang tracks locations, which the AST action
//    switches on); it names the construct: id file:line:col.
//  - a combined `parallel for` / `parallel sections` has its loop init at the
//    same location as the fork: the pair is ONE phase of kind "parallel for"
//    and the loop gets no probes of its own.
// Iterations: every innermost loop (LoopInfo on the unoptimized IR) adds one
// per latch traversal to a function-local counter; the counter is added to
// the thread's TLS counter before every probe call and every return, so each
// probe sees all iterations done so far by its thread, including those of
// callees. The local counter is an alloca that mem2reg turns into an
// induction variable, which leaves vectorization and loop exit values alone.
// Barriers: every __kmpc_barrier / __kmpc_cancel_barrier (explicit, and the
// implicit ones after worksharing constructs without nowait) and every
// blocking __kmpc_reduce adds one to the thread's TLS barrier counter.
// Synchronizing loops (SyncLoops.h): retry and spin loops count no
// iterations; every entry into a spin loop adds one to the thread's TLS
// spin-entry counter, and an execution that had to wait one to its
// spin-wait counter.
//
//===----------------------------------------------------------------------===//
#include "InstrumentPass.h"
#include "AllocGuards.h"
#include "Compat.h"
#include "CounterStep.h"
#include "CounterTbaa.h"
#include "GuardedSerial.h"
#include "OpMix.h"
#include "RuntimeRefs.h"
#include "SyncLoops.h"
#include "ThreadBranches.h"

#include "phaseprobe/interface.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <tuple>

using namespace llvm;

namespace phaseprobe {
namespace {

// libomp's ident_t flags (kmp.h).
constexpr uint64_t IdentWorkLoop = 0x200;
constexpr uint64_t IdentWorkSections = 0x400;
constexpr uint64_t IdentWorkDistribute = 0x800;

struct SourceLoc {
  std::string File, Function;
  unsigned Line = 0, Column = 0;
  uint64_t Flags = 0;
  bool operator==(const SourceLoc &O) const {
    return Line == O.Line && Column == O.Column && File == O.File;
  }
};

enum class Role {
  Other,
  Fork,           // __kmpc_fork_call / __kmpc_fork_teams
  SerialBegin,    // __kmpc_serialized_parallel
  SerialEnd,      // __kmpc_end_serialized_parallel
  StaticInit,     // __kmpc_for_static_init_* / distribute init
  StaticFini,     // __kmpc_for_static_fini / distribute fini
  DispatchInit,   // __kmpc_dispatch_init_*
  DispatchNext,   // __kmpc_dispatch_next_*
  OneThreadBegin, // __kmpc_single / __kmpc_master / __kmpc_masked
  OneThreadEnd,   // __kmpc_end_single / _end_master / _end_masked
  Barrier,        // __kmpc_barrier / __kmpc_cancel_barrier / __kmpc_reduce
};

Role roleOf(StringRef Name, bool &IsTeams, bool &IsSingle) {
  IsTeams = IsSingle = false;
  if (!Name.startswith("__kmpc_"))
    return Role::Other;
  if (Name == "__kmpc_fork_call")
    return Role::Fork;
  if (Name == "__kmpc_fork_teams") {
    IsTeams = true;
    return Role::Fork;
  }
  if (Name == "__kmpc_serialized_parallel")
    return Role::SerialBegin;
  if (Name == "__kmpc_end_serialized_parallel")
    return Role::SerialEnd;
  if (Name.startswith("__kmpc_for_static_init_") ||
      Name.startswith("__kmpc_distribute_static_init_") ||
      Name.startswith("__kmpc_dist_for_static_init_"))
    return Role::StaticInit;
  if (Name == "__kmpc_for_static_fini" || Name == "__kmpc_distribute_static_fini")
    return Role::StaticFini;
  if (Name.startswith("__kmpc_dispatch_init_") || Name.startswith("__kmpc_dist_dispatch_init_"))
    return Role::DispatchInit;
  if (Name.startswith("__kmpc_dispatch_next_"))
    return Role::DispatchNext;
  if (Name == "__kmpc_single") {
    IsSingle = true;
    return Role::OneThreadBegin;
  }
  if (Name == "__kmpc_master" || Name == "__kmpc_masked")
    return Role::OneThreadBegin;
  if (Name == "__kmpc_end_single" || Name == "__kmpc_end_master" || Name == "__kmpc_end_masked")
    return Role::OneThreadEnd;
  // A blocking reduction (`omp for reduction` without nowait) crosses one
  // barrier in every thread besides the construct's implicit one: inside
  // __kmpc_reduce or __kmpc_end_reduce, whichever method libomp picks
  // (NPB CG A: 832 of its 2967 barriers). The nowait form crosses one only
  // with the tree method, which libomp picks above four threads: not counted.
  if (Name == "__kmpc_barrier" || Name == "__kmpc_cancel_barrier" || Name == "__kmpc_reduce")
    return Role::Barrier;
  return Role::Other;
}

struct OmpCall {
  CallBase *Call;
  Role R;
  bool IsTeams, IsSingle;
  SourceLoc Loc;
};

// Reads ";file;function;line;col;;" from the ident_t passed as argument 0.
bool readIdent(Value *V, SourceLoc &Loc) {
  auto *GV = dyn_cast<GlobalVariable>(V->stripPointerCasts());
  if (!GV || !GV->hasInitializer())
    return false;
  auto *CS = dyn_cast<ConstantStruct>(GV->getInitializer());
  if (!CS || CS->getNumOperands() < 5)
    return false;
  if (auto *Flags = dyn_cast<ConstantInt>(CS->getOperand(1)))
    Loc.Flags = Flags->getZExtValue();
  auto *StrGV = dyn_cast<GlobalVariable>(CS->getOperand(4)->stripPointerCasts());
  if (!StrGV || !StrGV->hasInitializer())
    return false;
  auto *Data = dyn_cast<ConstantDataSequential>(StrGV->getInitializer());
  if (!Data || !Data->isCString())
    return false;
  SmallVector<StringRef, 8> Parts;
  Data->getAsCString().split(Parts, ';');
  if (Parts.size() < 5)
    return false;
  unsigned Line = 0, Col = 0;
  if (Parts[3].getAsInteger(10, Line) || Parts[4].getAsInteger(10, Col))
    return false;
  if (Parts[1] == "unknown" && Line == 0)
    return false; // clang did not track locations
  Loc.File = Parts[1].str();
  Loc.Function = Parts[2].str();
  Loc.Line = Line;
  Loc.Column = Col;
  return true;
}

// Fallback when the ident has no location: the call's debug location if
// there is one (compiled with -g), else the module's file, line 0 and a
// per-module ordinal as the column, which is unique and, since this pass
// sees clang's unoptimized IR, the same at every -O level.
bool locFromDebug(const CallBase &CB, SourceLoc &Loc, unsigned Ordinal) {
  Loc.Function = CB.getFunction()->getName().str();
  if (const DebugLoc &DL = CB.getDebugLoc()) {
    if (auto *Scope = dyn_cast<DIScope>(DL.getScope()))
      Loc.File = Scope->getFilename().str();
    if (DL.getLine() && !Loc.File.empty()) {
      Loc.Line = DL.getLine();
      Loc.Column = DL.getCol();
      return true;
    }
  }
  Loc.File = CB.getModule()->getSourceFileName();
  Loc.Line = 0;
  Loc.Column = Ordinal;
  return false;
}

class Instrumenter {
public:
  Instrumenter(Module &M, ModuleAnalysisManager &MAM)
      : M(M), Ctx(M.getContext()),
        FAM(MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager()) {}

  bool run();

private:
  // Descriptors -----------------------------------------------------------
  unsigned descriptorFor(const SourceLoc &L, unsigned Kind);
  void emitDescriptors();
  Constant *descriptorPtr(unsigned Index);

  // Iteration counters ----------------------------------------------------
  void addCounters(Function &F);
  void countWaits(Function &F, Loop &L);
  void flushBefore(Instruction *I);

  // Probes ---------------------------------------------------------------
  void callBefore(Instruction *I, FunctionCallee Fn, ArrayRef<Value *> Args);
  void callAfter(Instruction *I, FunctionCallee Fn, ArrayRef<Value *> Args);
  CallBase *pairedInit(CallBase *End, ArrayRef<CallBase *> Inits);
  unsigned serialRegion(const OmpCall &C, const DenseMap<Function *, unsigned> &Outlined,
                        bool Forward);

  Module &M;
  LLVMContext &Ctx;
  FunctionAnalysisManager &FAM;

  struct Desc {
    SourceLoc Loc;
    unsigned Kind;
    std::optional<OpMix> Mix; ///< the arithmetic of its code (__phaseprobe_op_mix)
  };
  std::vector<Desc> Descs;
  std::map<std::tuple<std::string, unsigned, unsigned, bool>, unsigned> DescIndex;
  GlobalVariable *DescArray = nullptr;
  StructType *DescTy = nullptr;
  // Placeholders used while instrumenting, replaced by GEPs into DescArray.
  std::vector<GlobalVariable *> Placeholders;

  ThreadBranchReport ThreadBranches; // findThreadBranches, before any probe
  /// Per fork and worksharing init: the arithmetic of its construct's code,
  /// counted before any probe.
  DenseMap<CallBase *, OpMix> MixOf;
  void countOpMixes(ArrayRef<OmpCall> Calls);
  /// The first count a descriptor gets is its own (a template instantiated
  /// twice is one descriptor, with the same code).
  void noteMix(unsigned D, CallBase *Call) {
    auto It = MixOf.find(Call);
    if (!Descs[D].Mix && It != MixOf.end())
      Descs[D].Mix = It->second;
  }
  /// Region descriptors that run only where tests of the thread count hold:
  /// the tests every fork of the region is guarded by.
  std::map<unsigned, std::vector<std::string>> RegionGuards;

  DenseMap<Function *, AllocaInst *> Counters;
  GlobalVariable *TlsIterations = nullptr;
  GlobalVariable *TlsBarriers = nullptr;
  GlobalVariable *TlsSpinWaits = nullptr, *TlsSpinEntries = nullptr;
  MDNode *CounterTag = nullptr; // counterTbaaTag: the counters alias only themselves
};

bool isRegionKind(unsigned K) { return K >= 1 && K <= 4; }

unsigned Instrumenter::descriptorFor(const SourceLoc &L, unsigned Kind) {
  auto Key = std::make_tuple(L.File, L.Line, L.Column, isRegionKind(Kind));
  auto It = DescIndex.find(Key);
  if (It != DescIndex.end())
    return It->second;
  unsigned I = Descs.size();
  Descs.push_back({L, Kind, {}});
  DescIndex.emplace(Key, I);
  // Until the array exists, refer to a placeholder global of the right type.
  auto *P =
      new GlobalVariable(M, Type::getInt8Ty(Ctx), false, GlobalValue::PrivateLinkage,
                         ConstantInt::get(Type::getInt8Ty(Ctx), 0), "__phaseprobe.placeholder");
  Placeholders.push_back(P);
  return I;
}

Constant *Instrumenter::descriptorPtr(unsigned Index) {
  return ConstantExpr::getBitCast(Placeholders[Index], compat::bytePtrTy(Ctx));
}

void Instrumenter::emitDescriptors() {
  // Every instrumented object registers, even one without constructs: the
  // runtime writes a phase file when at least one object was instrumented.
  Type *I32 = Type::getInt32Ty(Ctx);
  Type *Str = compat::bytePtrTy(Ctx);
  DescTy = StructType::create(Ctx, {I32, I32, I32, I32, Str, Str}, "struct.__phaseprobe_construct");
  std::vector<Constant *> Elems;
  StringPool Strings(M);
  for (const Desc &D : Descs)
    Elems.push_back(ConstantStruct::get(
        DescTy, {ConstantInt::get(I32, PHASEPROBE_DISABLED), ConstantInt::get(I32, D.Kind),
                 ConstantInt::get(I32, D.Loc.Line), ConstantInt::get(I32, D.Loc.Column),
                 Strings.get(D.Loc.File), Strings.get(D.Loc.Function)}));
  // A module without constructs registers an empty array.
  auto *ArrTy = ArrayType::get(DescTy, Elems.size());
  DescArray = new GlobalVariable(M, ArrTy, false, GlobalValue::InternalLinkage,
                                 ConstantArray::get(ArrTy, Elems), "__phaseprobe.constructs");
  DescArray->setAlignment(Align(8));

  for (unsigned I = 0; I < Placeholders.size(); ++I) {
    Constant *Idx[] = {ConstantInt::get(I32, 0), ConstantInt::get(I32, I)};
    Constant *Ptr = ConstantExpr::getInBoundsGetElementPtr(ArrTy, DescArray, Idx);
    Placeholders[I]->replaceAllUsesWith(ConstantExpr::getBitCast(Ptr, Placeholders[I]->getType()));
    Placeholders[I]->eraseFromParent();
  }

  // The module constructor registers the array before any user code runs.
  auto *CtorTy = FunctionType::get(Type::getVoidTy(Ctx), false);
  Function *Ctor =
      Function::Create(CtorTy, GlobalValue::InternalLinkage, "__phaseprobe.module_ctor", M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Ctor));
  FunctionCallee Reg = M.getOrInsertFunction("__phaseprobe_register", Type::getVoidTy(Ctx), I32,
                                             Str, compat::pointerTo(DescTy), I32, I32);
  uint64_t Size = M.getDataLayout().getTypeAllocSize(DescTy);
  Constant *Idx[] = {ConstantInt::get(I32, 0), ConstantInt::get(I32, 0)};
  B.CreateCall(Reg, {ConstantInt::get(I32, PHASEPROBE_ABI_VERSION), Strings.get(M.getSourceFileName()),
                     ConstantExpr::getInBoundsGetElementPtr(ArrTy, DescArray, Idx),
                     ConstantInt::get(I32, Elems.size()), ConstantInt::get(I32, Size)});
  Instruction *Ret = B.CreateRetVoid();
  // Through weak references, as interface.h promises: a runtime that
  // predates an entry point leaves it null and is simply not told. Each
  // call goes before the return, so they run in the order made.
  auto TellIfResolved = [&](const char *Name, ArrayRef<Type *> Params, ArrayRef<Value *> Args) {
    callIfResolved(Ret, weakRuntimeFunction(M, Name, Params), Args, DebugLoc());
  };
  // The runtime's tables name constructs by their descriptor's address.
  auto DescriptorAt = [&](unsigned D) {
    Constant *DIdx[] = {ConstantInt::get(I32, 0), ConstantInt::get(I32, D)};
    return ConstantExpr::getInBoundsGetElementPtr(ArrTy, DescArray, DIdx);
  };
  if (!ThreadBranches.sites.empty()) {
    std::vector<Constant *> Sites;
    for (const std::string &S : ThreadBranches.sites)
      Sites.push_back(Strings.get(S));
    TellIfResolved("__phaseprobe_thread_branches", {Str, compat::pointerTo(Str), I32},
                   {Strings.get(M.getSourceFileName()),
                    constArrayPtr(M, Str, Sites, "__phaseprobe.thread_branches"),
                    ConstantInt::get(I32, Sites.size())});
  }
  if (!RegionGuards.empty()) {
    std::vector<Constant *> Regions, Tests;
    for (const auto &[D, RegionTests] : RegionGuards)
      for (const std::string &T : RegionTests) {
        Regions.push_back(DescriptorAt(D));
        Tests.push_back(Strings.get(T));
      }
    Type *DescPtr = compat::pointerTo(DescTy);
    TellIfResolved("__phaseprobe_region_guards",
                   {Str, compat::pointerTo(DescPtr), compat::pointerTo(Str), I32},
                   {Strings.get(M.getSourceFileName()),
                    constArrayPtr(M, DescPtr, Regions, "__phaseprobe.guarded_regions"),
                    constArrayPtr(M, Str, Tests, "__phaseprobe.region_guards"),
                    ConstantInt::get(I32, Regions.size())});
  }
  std::vector<Constant *> Mixed, Counts;
  for (unsigned D = 0; D < Descs.size(); ++D) {
    if (!Descs[D].Mix)
      continue;
    const OpMix &X = *Descs[D].Mix;
    Mixed.push_back(DescriptorAt(D));
    for (uint32_t N : {X.add, X.mul, X.div, X.sqrt, X.math})
      Counts.push_back(ConstantInt::get(I32, N));
  }
  static_assert(PHASEPROBE_OP_KINDS == 5, "the order of OpMix's fields");
  if (!Mixed.empty()) {
    Type *DescPtr = compat::pointerTo(DescTy);
    TellIfResolved("__phaseprobe_op_mix",
                   {Str, compat::pointerTo(DescPtr), compat::pointerTo(I32), I32},
                   {Strings.get(M.getSourceFileName()),
                    constArrayPtr(M, DescPtr, Mixed, "__phaseprobe.mixed_constructs"),
                    constArrayPtr(M, I32, Counts, "__phaseprobe.op_mix"),
                    ConstantInt::get(I32, Mixed.size())});
  }
  // Priority 1: before every user constructor (which may open a region).
  appendToGlobalCtors(M, Ctor, 1);
}

void Instrumenter::addCounters(Function &F) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  SmallVector<BasicBlock *, 8> Latches;
  SmallVector<Loop *, 2> Spins;
  for (Loop *L : LI.getLoopsInPreorder()) {
    if (!onlyRetriesInside(*L))
      continue;
    switch (syncLoopKind(*L)) {
    case SyncLoopKind::None:
      L->getLoopLatches(Latches);
      break;
    case SyncLoopKind::Spin:
      Spins.push_back(L);
      break;
    case SyncLoopKind::Retry:
    case SyncLoopKind::Yield:
      break;
    }
  }
  Type *I64 = Type::getInt64Ty(Ctx);
  for (Loop *L : Spins)
    countWaits(F, *L);
  if (Latches.empty())
    return;
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Ctr = B.CreateAlloca(I64, nullptr, "__phaseprobe.iters");
  B.CreateStore(ConstantInt::get(I64, 0), Ctr);
  for (BasicBlock *Latch : Latches) {
    IRBuilder<> LB(Latch->getTerminator());
    Value *Next = LB.CreateAdd(LB.CreateLoad(I64, Ctr), ConstantInt::get(I64, 1));
    markCounterStep(*cast<Instruction>(Next));
    LB.CreateStore(Next, Ctr);
  }
  Counters[&F] = Ctr;
}

// Every edge into the header from outside is an entry; a wait is an
// execution of the spin loop that went round at least once (its condition
// still held on entry): each entry also arms a flag, the first latch
// traversal adds it to the thread's wait counter and disarms it. Later
// turns add zero; they are waiting, which costs nothing to count.
void Instrumenter::countWaits(Function &F, Loop &L) {
  SmallVector<BasicBlock *, 4> Latches;
  L.getLoopLatches(Latches);
  SmallVector<BasicBlock *, 4> Entries;
  for (BasicBlock *P : predecessors(L.getHeader()))
    if (!L.contains(P)) {
      if (!isa<BranchInst>(P->getTerminator()) && !isa<SwitchInst>(P->getTerminator()))
        return; // an entry we cannot put a store before: leave the loop uncounted
      Entries.push_back(P);
    }
  if (Latches.empty() || Entries.empty())
    return;
  Type *I64 = Type::getInt64Ty(Ctx);
  IRBuilder<> B(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Armed = B.CreateAlloca(I64, nullptr, "__phaseprobe.armed");
  B.CreateStore(ConstantInt::get(I64, 0), Armed);
  for (BasicBlock *P : Entries) {
    IRBuilder<> EB(P->getTerminator());
    EB.CreateStore(ConstantInt::get(I64, 1), Armed);
    addToCounter(EB, TlsSpinEntries, ConstantInt::get(I64, 1), CounterTag);
  }
  for (BasicBlock *Latch : Latches) {
    IRBuilder<> LB(Latch->getTerminator());
    addToCounter(LB, TlsSpinWaits, LB.CreateLoad(I64, Armed), CounterTag);
    LB.CreateStore(ConstantInt::get(I64, 0), Armed);
  }
}

void Instrumenter::flushBefore(Instruction *I) {
  auto It = Counters.find(I->getFunction());
  if (It == Counters.end())
    return;
  Type *I64 = Type::getInt64Ty(Ctx);
  IRBuilder<> B(I);
  addToCounter(B, TlsIterations, B.CreateLoad(I64, It->second), CounterTag);
  B.CreateStore(ConstantInt::get(I64, 0), It->second);
}

void Instrumenter::callBefore(Instruction *I, FunctionCallee Fn, ArrayRef<Value *> Args) {
  flushBefore(I);
  IRBuilder<> B(I);
  CallInst *C = B.CreateCall(Fn, Args);
  C->setDebugLoc(I->getDebugLoc());
}

void Instrumenter::callAfter(Instruction *I, FunctionCallee Fn, ArrayRef<Value *> Args) {
  // clang emits the libomp calls as plain calls; should one be an invoke,
  // the probe goes to the start of its normal destination.
  Instruction *Next = isa<InvokeInst>(I)
                          ? &*cast<InvokeInst>(I)->getNormalDest()->getFirstInsertionPt()
                          : I->getNextNode();
  flushBefore(Next);
  IRBuilder<> B(Next);
  CallInst *C = B.CreateCall(Fn, Args);
  C->setDebugLoc(I->getDebugLoc());
}

// The init call that opened the construct \p End closes: the nearest one of
// \p Inits (same function) that dominates it.
CallBase *Instrumenter::pairedInit(CallBase *End, ArrayRef<CallBase *> Inits) {
  Function *F = End->getFunction();
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(*F);
  CallBase *Best = nullptr;
  for (CallBase *I : Inits)
    if (I->getFunction() == F && DT.dominates(I, End) && (!Best || DT.dominates(Best, I)))
      Best = I;
  return Best;
}

void Instrumenter::countOpMixes(ArrayRef<OmpCall> Calls) {
  SmallVector<CallBase *, 16> Inits;
  for (const OmpCall &C : Calls)
    if (C.R == Role::StaticInit)
      Inits.push_back(C.Call);
  DenseMap<CallBase *, CallBase *> FiniOf;
  for (const OmpCall &C : Calls)
    if (C.R == Role::StaticFini)
      if (CallBase *I = pairedInit(C.Call, Inits))
        FiniOf.try_emplace(I, C.Call);
  OpMixCounter Counter(FAM);
  for (const OmpCall &C : Calls) {
    if (C.R == Role::Fork && C.Call->arg_size() >= 3) {
      if (auto *Body = dyn_cast<Function>(C.Call->getArgOperand(2)->stripPointerCasts()))
        MixOf[C.Call] = Counter.ofFunction(*Body);
    } else if (C.R == Role::StaticInit || C.R == Role::DispatchInit) {
      // A dynamic loop has no end call: its code runs to the function's end.
      MixOf[C.Call] = Counter.ofConstruct(*C.Call, FiniOf.lookup(C.Call));
    }
  }
}

// The region a serialized (if(false)) execution belongs to: clang calls the
// region's outlined function directly between __kmpc_serialized_parallel and
// __kmpc_end_serialized_parallel, so that call names the region even when
// locations are unknown. Falls back to the location.
unsigned Instrumenter::serialRegion(const OmpCall &C,
                                    const DenseMap<Function *, unsigned> &Outlined, bool Forward) {
  for (Instruction *I = Forward ? C.Call->getNextNode() : C.Call->getPrevNode(); I;
       I = Forward ? I->getNextNode() : I->getPrevNode())
    if (auto *CB = dyn_cast<CallBase>(I)) {
      auto It = Outlined.find(CB->getCalledFunction());
      if (It != Outlined.end())
        return It->second;
    }
  return descriptorFor(C.Loc, __PHASEPROBE_PARALLEL);
}

bool Instrumenter::run() {
  CounterTag = counterTbaaTag(M);
  // 1. Find the OpenMP runtime calls.
  std::vector<OmpCall> Calls;
  unsigned UnknownLocs = 0;
  bool LocsMissing = false;
  for (Function &F : M) {
    if (F.isDeclaration() || F.getName().startswith("__phaseprobe"))
      continue;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !CB->getCalledFunction())
        continue;
      OmpCall C{CB, Role::Other, false, false, {}};
      C.R = roleOf(CB->getCalledFunction()->getName(), C.IsTeams, C.IsSingle);
      if (C.R == Role::Other || CB->arg_size() == 0)
        continue;
      if (C.R == Role::Barrier) { // counted, never named: no location needed
        Calls.push_back(C);
        continue;
      }
      if (!readIdent(CB->getArgOperand(0), C.Loc) && !locFromDebug(*CB, C.Loc, ++UnknownLocs))
        LocsMissing = true;
      Calls.push_back(C);
    }
  }

  if (LocsMissing)
    WithColor::warning(errs(), "phaseprobe")
        << M.getSourceFileName()
        << ": clang did not record the source locations of OpenMP "
           "constructs; phase ids fall back to <file>:0:<n>. Add "
           "-Rpass=phaseprobe (phaseprobe-cc does) or -g to get "
           "<file>:<line>:<column>\n";

  // Before anything is inserted: the analyses read clang's own IR.
  ThreadBranches = findThreadBranches(M, FAM);
  countOpMixes(Calls);

  // 2. Counters first: probes flush them.
  Type *I64 = Type::getInt64Ty(Ctx);
  TlsIterations = runtimeCounter(M, "__phaseprobe_iterations");
  // Barriers a thread crosses: the runtime charges them to the region the
  // thread forked, so that synchronization cost can be projected apart from
  // work (a barrier is cheap on idle cores, a time slice on a shared one).
  // Spin waits likewise, to the region each waiting thread is a member of.
  TlsBarriers = runtimeCounter(M, "__phaseprobe_barriers");
  TlsSpinWaits = runtimeCounter(M, "__phaseprobe_spin_waits");
  TlsSpinEntries = runtimeCounter(M, "__phaseprobe_spin_entries");
  for (Function &F : M)
    if (!F.isDeclaration() && !F.getName().startswith("__phaseprobe"))
      addCounters(F);

  // 3. Regions and which loop inits are the loop of a combined construct.
  Type *Void = Type::getVoidTy(Ctx);
  Type *Ptr = compat::bytePtrTy(Ctx);
  Type *I32 = Type::getInt32Ty(Ctx);
  FunctionCallee RegionBegin = M.getOrInsertFunction("__phaseprobe_region_begin", Void, Ptr);
  FunctionCallee RegionEnd = M.getOrInsertFunction("__phaseprobe_region_end", Void, Ptr);
  FunctionCallee ThreadBegin = M.getOrInsertFunction("__phaseprobe_thread_begin", Void, Ptr);
  FunctionCallee ThreadEnd = M.getOrInsertFunction("__phaseprobe_thread_end", Void, Ptr);
  FunctionCallee WsBegin = M.getOrInsertFunction("__phaseprobe_ws_begin", Void, Ptr);
  FunctionCallee WsEntered = M.getOrInsertFunction("__phaseprobe_ws_entered", Void, I32);
  FunctionCallee WsNext = M.getOrInsertFunction("__phaseprobe_ws_next", Void, I32);
  FunctionCallee WsEnd = M.getOrInsertFunction("__phaseprobe_ws_end", Void);

  DenseMap<CallBase *, bool> Combined;
  DenseMap<Function *, unsigned> Outlined; // outlined body -> region desc
  std::vector<std::pair<CallBase *, unsigned>> Forks;
  for (OmpCall &C : Calls) {
    if (C.R != Role::Fork || C.Call->arg_size() < 3)
      continue;
    auto *Body = dyn_cast<Function>(C.Call->getArgOperand(2)->stripPointerCasts());
    unsigned Kind = C.IsTeams ? __PHASEPROBE_TEAMS : __PHASEPROBE_PARALLEL;
    // With -g clang outlines the body twice (.omp_outlined. calls
    // .omp_outlined._debug__), so the combined loop may be one call deeper.
    SmallPtrSet<Function *, 4> Bodies;
    if (Body) {
      Bodies.insert(Body);
      for (Instruction &I : instructions(*Body))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && Callee->hasLocalLinkage())
              Bodies.insert(Callee);
    }
    if (Body) {
      for (OmpCall &W : Calls)
        if ((W.R == Role::StaticInit || W.R == Role::DispatchInit) &&
            Bodies.count(W.Call->getFunction()) && W.Loc == C.Loc) {
          Combined[W.Call] = true;
          if (!C.IsTeams)
            Kind = (W.Loc.Flags & IdentWorkSections) ? __PHASEPROBE_PARALLEL_SECTIONS
                                                     : __PHASEPROBE_PARALLEL_FOR;
        }
    }
    // `teams distribute parallel for` on the host: the teams fork and the
    // parallel fork inside it share the pragma's location. The inner fork is
    // the phase (it has the team of threads); the teams fork is not timed.
    if (C.IsTeams && Body && llvm::any_of(Calls, [&](const OmpCall &In) {
          return In.R == Role::Fork && !In.IsTeams && Bodies.count(In.Call->getFunction()) &&
                 In.Loc == C.Loc;
        }))
      continue;
    unsigned D = descriptorFor(C.Loc, Kind);
    noteMix(D, C.Call);
    // A later fork at the same location (a template instance) may be the
    // one that reveals the combined loop.
    if (Kind != __PHASEPROBE_PARALLEL && !C.IsTeams)
      Descs[D].Kind = Kind;
    Forks.push_back({C.Call, D});
    if (Body && !Body->isDeclaration())
      Outlined.try_emplace(Body, D);
  }
  // A region is guarded by the tests all its forks are (a template
  // instance outside the branch runs it at every count).
  {
    std::map<CallBase *, const std::vector<std::string> *> TestsOf;
    for (const auto &[CB, Tests] : ThreadBranches.guardedForks)
      TestsOf[CB] = &Tests;
    std::map<unsigned, std::optional<std::vector<std::string>>> Common;
    for (const auto &[Call, D] : Forks) {
      static const std::vector<std::string> Unguarded;
      auto It = TestsOf.find(Call);
      const std::vector<std::string> &Mine = It == TestsOf.end() ? Unguarded : *It->second;
      auto &C = Common[D];
      if (!C) {
        C = Mine;
        continue;
      }
      std::vector<std::string> Both;
      std::set_intersection(C->begin(), C->end(), Mine.begin(), Mine.end(),
                            std::back_inserter(Both));
      C = Both;
    }
    for (auto &[D, C] : Common)
      if (C && !C->empty())
        RegionGuards[D] = *C;
    // A branch that only decides whether regions run is modeled by their
    // runs_if once every one of those regions carries its test: the
    // estimate then leaves nothing of it out, and listing it would warn of
    // other code the projection does not contain.
    std::map<CallBase *, unsigned> DescOf(Forks.begin(), Forks.end());
    for (const ThreadBranchReport::RegionOnlySite &R : ThreadBranches.regionOnlySites) {
      bool Modeled = llvm::all_of(R.forks, [&](CallBase *CB) {
        auto D = DescOf.find(CB);
        if (D == DescOf.end())
          return false;
        auto G = RegionGuards.find(D->second);
        return G != RegionGuards.end() && llvm::is_contained(G->second, R.test);
      });
      if (Modeled)
        llvm::erase_value(ThreadBranches.sites, R.site);
    }
  }
  // Combined loops whose end calls must not close a share.
  SmallVector<CallBase *, 16> StaticInits, DispatchInits;
  for (OmpCall &C : Calls) {
    if (C.R == Role::StaticInit)
      StaticInits.push_back(C.Call);
    if (C.R == Role::DispatchInit)
      DispatchInits.push_back(C.Call);
  }

  // 4. Probes.
  for (auto &[Call, D] : Forks) {
    callBefore(Call, RegionBegin, {descriptorPtr(D)});
    callAfter(Call, RegionEnd, {descriptorPtr(D)});
  }
  for (auto &[Body, D] : Outlined) {
    // No flush needed at entry: the local counter starts at zero.
    IRBuilder<> B(&*Body->getEntryBlock().getFirstInsertionPt());
    B.CreateCall(ThreadBegin, {descriptorPtr(D)});
    SmallVector<ReturnInst *, 4> Rets;
    for (BasicBlock &BB : *Body)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
        Rets.push_back(R);
    for (ReturnInst *R : Rets)
      callBefore(R, ThreadEnd, {descriptorPtr(D)});
  }
  for (OmpCall &C : Calls) {
    switch (C.R) {
    case Role::SerialBegin:
      callBefore(C.Call, RegionBegin, {descriptorPtr(serialRegion(C, Outlined, true))});
      break;
    case Role::SerialEnd:
      callAfter(C.Call, RegionEnd, {descriptorPtr(serialRegion(C, Outlined, false))});
      break;
    case Role::StaticInit:
    case Role::DispatchInit: {
      if (Combined.count(C.Call))
        break;
      unsigned Kind = __PHASEPROBE_FOR;
      if (C.Loc.Flags & IdentWorkSections)
        Kind = __PHASEPROBE_SECTIONS;
      else if ((C.Loc.Flags & IdentWorkDistribute) && !(C.Loc.Flags & IdentWorkLoop))
        Kind = __PHASEPROBE_DISTRIBUTE;
      unsigned D = descriptorFor(C.Loc, Kind);
      noteMix(D, C.Call);
      callBefore(C.Call, WsBegin, {descriptorPtr(D)});
      break;
    }
    case Role::StaticFini: {
      CallBase *Init = pairedInit(C.Call, StaticInits);
      if (Init && !Combined.count(Init))
        callAfter(C.Call, WsEnd, {});
      break;
    }
    case Role::DispatchNext: {
      CallBase *Init = pairedInit(C.Call, DispatchInits);
      if (Init && !Combined.count(Init))
        callAfter(C.Call, WsNext, {C.Call});
      break;
    }
    case Role::OneThreadBegin: {
      unsigned Kind = C.IsSingle ? __PHASEPROBE_SINGLE : __PHASEPROBE_MASTER;
      callBefore(C.Call, WsBegin, {descriptorPtr(descriptorFor(C.Loc, Kind))});
      callAfter(C.Call, WsEntered, {C.Call});
      break;
    }
    case Role::OneThreadEnd:
      callAfter(C.Call, WsEnd, {});
      break;
    case Role::Barrier: {
      IRBuilder<> B(C.Call);
      addToCounter(B, TlsBarriers, ConstantInt::get(I64, 1), CounterTag);
      break;
    }
    default:
      break;
    }
  }

  // 5. Flush the counters before every return.
  for (auto &[F, Ctr] : Counters) {
    SmallVector<ReturnInst *, 4> Rets;
    for (BasicBlock &BB : *F)
      if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator()))
        Rets.push_back(R);
    for (ReturnInst *R : Rets) {
      Instruction *At = R;
      // Nothing may separate a musttail call from its return.
      if (auto *Prev = dyn_cast_or_null<CallInst>(R->getPrevNode()))
        if (Prev->isMustTailCall())
          At = Prev;
      if (Outlined.count(F))
        continue; // already flushed before thread_end, right before the ret
      flushBefore(At);
    }
  }

  // 6. Memory allocated and serial code run only under a test: last, as
  // they split blocks.
  tellGuardedAllocs(M, ThreadBranches.guardedAllocs);
  timeGuardedSerial(M, ThreadBranches.guardedSerial);

  emitDescriptors();
  return true;
}

} // namespace

PreservedAnalyses InstrumentPass::run(Module &M, ModuleAnalysisManager &MAM) {
  Instrumenter I(M, MAM);
  return I.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace phaseprobe
