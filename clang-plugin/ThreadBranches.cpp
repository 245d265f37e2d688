//===- ThreadBranches.cpp - Code that branches on the thread count --------===//
//
// A forward taint over clang's unoptimized IR. Locals still live in allocas
// there, so "derived from the thread count" has two forms: a value computed
// from it (depth 0) and a pointer through which d loads reach such a value
// (depth d: the alloca `numthreads` is stored to is depth 1, the
// `numthreads.addr` slot an outlined body keeps a shared variable's address
// in is depth 2). Stores raise the depth, loads lower it. Only stores to a
// whole object (an alloca or a global, not a field through a GEP) taint it,
// so a struct holding the thread count in one member does not taint the
// others: a missed site costs a warning, a false one costs the user's trust.
//
// Where the branch compares the count itself with a constant (LULESH's
// `numthreads > 1`, numthreads = omp_get_max_threads()), the site carries
// that test, so the estimate can tell the thread counts that take the other
// way from those that run the same code. A value is "the count itself" only
// if nothing else can be in it: every store into a slot that holds it, and
// every call that passes it into a parameter, must carry the count too, and
// the slot's address must not leave into a field or a function whose body
// the module lacks (a defined callee's parameter is checked the same way,
// an outlined region body's too). Pointers to
// the same memory (a variable, the slot of an outlined body that receives
// its address, what loads from that slot give) are one class: a foreign
// write through any of them takes the count from all. Else the site is kept
// without a test (it may run other code at any other count). A global's
// initial value is not counted as a write: a branch that reads the global
// before the program stores the count in it is taken for one after.
//
//===----------------------------------------------------------------------===//
#include "ThreadBranches.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

using namespace llvm;

namespace phaseprobe {
namespace {

bool isThreadCountQuery(const Function *F) {
  if (!F)
    return false;
  StringRef N = F->getName();
  return N == "omp_get_max_threads" || N == "omp_get_num_threads" ||
         N == "omp_get_num_procs" || N == "omp_get_thread_limit";
}

// omp_get_max_threads() is the count a run of OMP_NUM_THREADS=T sets (the
// other queries answer 1 outside a region, or the node's processors).
bool isExactCountQuery(const Function *F) { return F && F->getName() == "omp_get_max_threads"; }

bool isForkCall(const Function *F) {
  return F && (F->getName() == "__kmpc_fork_call" || F->getName() == "__kmpc_fork_teams");
}

// Three levels of pointers to the value are followed (a shared variable's
// address kept in an outlined body's slot is two); deeper ones are not.
constexpr unsigned MaxDepth = 3;

/// What a tainted value is known to be (for a pointer: what its loads reach).
struct Fact {
  enum Kind : uint8_t { Count, Test, Derived } K = Derived;
  CmpInst::Predicate Pred = CmpInst::BAD_ICMP_PREDICATE; ///< Test: "threads Pred C"
  int64_t C = 0;

  static Fact count() { return {Count, CmpInst::BAD_ICMP_PREDICATE, 0}; }
  static Fact derived() { return {}; }
  /// threads Pred C, with Pred from an icmp whose first operand is the count.
  static Fact test(CmpInst::Predicate P, const APInt &V) {
    if (V.getMinSignedBits() > 64)
      return derived();
    int64_t N = V.getSExtValue();
    if (CmpInst::isUnsigned(P)) {
      // A count is positive: unsigned and signed orders agree against N >= 0.
      if (N < 0)
        return derived();
      P = CmpInst::getSignedPredicate(P);
    }
    return {Test, P, N};
  }
  Fact negated() const {
    return K == Test ? Fact{Test, CmpInst::getInversePredicate(Pred), C} : derived();
  }
  bool operator==(const Fact &O) const {
    return K == O.K && (K != Test || (Pred == O.Pred && C == O.C));
  }
  bool operator!=(const Fact &O) const { return !(*this == O); }
  Fact join(const Fact &O) const { return *this == O ? *this : derived(); }
  /// " (threads > 1)", the suffix of a site whose branch follows the test.
  std::string suffix() const { return K == Test ? " (" + text() + ")" : ""; }
  /// "threads > 1" (a Test only).
  std::string text() const {
    const char *Op = Pred == CmpInst::ICMP_SGT   ? ">"
                     : Pred == CmpInst::ICMP_SGE ? ">="
                     : Pred == CmpInst::ICMP_SLT ? "<"
                     : Pred == CmpInst::ICMP_SLE ? "<="
                     : Pred == CmpInst::ICMP_EQ  ? "=="
                                                 : "!=";
    return ("threads " + Twine(Op) + " " + Twine(C)).str();
  }
};

using Key = std::pair<Value *, unsigned>; // a value and the loads to reach the count

class Taint {
public:
  explicit Taint(FunctionAnalysisManager &FAM) : FAM(FAM) {}

  /// Taints from every thread-count query of \p M, then takes the count
  /// back from the slots and parameters that may hold something else, and
  /// taints again, until nothing changes (each round poisons at least one
  /// more key, so this ends).
  void run(Module &M) {
    Mod = &M;
    for (;;) {
      Facts.clear();
      Sites.clear();
      Branches.clear();
      SiteOf.clear();
      Alias.clear();
      Contents.clear();
      for (Function &F : M) {
        if (!isThreadCountQuery(&F))
          continue;
        for (User *U : F.users())
          if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledFunction() == &F)
            mark(CB, 0, isExactCountQuery(&F) ? Fact::count() : Fact::derived());
      }
      while (!Work.empty()) {
        Key K = Work.pop_back_val();
        Fact F = Facts.lookup(K);
        for (User *U : K.first->users())
          follow(K.first, K.second, F, U);
      }
      if (!poisonOthers())
        return;
    }
  }

  std::vector<std::string> sites() const { // sorted
    std::vector<std::string> Out;
    for (const auto &[Site, F] : Sites)
      Out.push_back(Site + F.suffix());
    return Out;
  }

  /// The sites of ThreadBranchReport::regionOnlySites.
  std::vector<ThreadBranchReport::RegionOnlySite> regionOnlySites() {
    std::map<std::string, std::vector<BranchInst *>> BySite;
    for (const auto &[BI, Site] : SiteOf)
      BySite[Site].push_back(BI);
    std::vector<ThreadBranchReport::RegionOnlySite> Out;
    for (const auto &[Site, BIs] : BySite) {
      const Fact &SF = Sites.at(Site);
      if (SF.K != Fact::Test)
        continue;
      ThreadBranchReport::RegionOnlySite R{Site + SF.suffix(), "", {}};
      bool All = true;
      for (BranchInst *BI : BIs) {
        const Fact &F = Branches.lookup(BI);
        if (F.K != Fact::Test || BI->getSuccessor(0) == BI->getSuccessor(1)) {
          All = false;
          break;
        }
        Function &Fn = *BI->getFunction();
        DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(Fn);
        LoopInfo &LI = FAM.getResult<LoopAnalysis>(Fn);
        BasicBlockEdge Then(BI->getParent(), BI->getSuccessor(0)),
            Else(BI->getParent(), BI->getSuccessor(1));
        // Which way forks the regions, and the test under which it is taken.
        std::vector<CallBase *> Forks;
        auto Only = [&](const BasicBlockEdge &Way, const BasicBlockEdge &Other) {
          Forks.clear();
          return !doesWork(Other, DT, LI) && onlyRegions(Way, DT, LI, Forks) && !Forks.empty();
        };
        std::string Test = Only(Then, Else)   ? F.text()
                           : Only(Else, Then) ? F.negated().text()
                                              : "";
        if (Test.empty() || (!R.test.empty() && R.test != Test)) {
          All = false;
          break;
        }
        R.test = Test;
        R.forks.insert(R.forks.end(), Forks.begin(), Forks.end());
      }
      if (All)
        Out.push_back(std::move(R));
    }
    return Out;
  }

  /// The fork calls an edge of a tested branch dominates, with the tests,
  /// where the other edge leads to no work of its own (LULESH's
  /// `if (numthreads > 1) { gather region }`): left out where the test
  /// fails, such a region leaves nothing behind. A region with an
  /// alternative on the other way (another region, a loop, a call) is not
  /// guarded: its cost is the best guess there is for the alternative's,
  /// which no base run saw (the estimate warns of it as other code). A
  /// function of the module that only direct calls reach (internal
  /// linkage) is guarded by the tests all its call sites are under, so
  /// `if (numthreads > 1) gather(...);` guards gather's regions too.
  /// Allocating calls likewise, where the other edge does not allocate
  /// either (`if (nt > 1) p = malloc(2 * n); else p = malloc(n);` faults
  /// at every count). Fills \p Report's guardedForks and guardedAllocs.
  void guardedCalls(ThreadBranchReport &Report) {
    Tested.clear();
    for (const auto &[BI, F] : Branches)
      if (F.K == Fact::Test)
        Tested[BI->getFunction()].push_back({BI, F});
    CalledUnder Forks = calledUnder(Alternative::Work),
                Allocs = calledUnder(Alternative::WorkOrAllocation);
    for (Function &Fn : *Mod)
      for (Instruction &I : instructions(Fn)) {
        auto *CB = dyn_cast<CallBase>(&I);
        Function *Callee = CB ? CB->getCalledFunction() : nullptr;
        if (!Callee)
          continue;
        bool Fork = isForkCall(Callee);
        std::vector<CallBase *> Allocations;
        if (!Fork && CB->getType()->isPointerTy())
          allocationsReturned(*CB, Allocations);
        if (!Fork && Allocations.empty())
          continue;
        std::optional<TestSet> Tests = Fork ? under(*CB, Forks, Alternative::Work)
                                            : under(*CB, Allocs, Alternative::WorkOrAllocation);
        if (!Tests || Tests->empty())
          continue;
        std::vector<std::string> List(Tests->begin(), Tests->end());
        if (Fork)
          Report.guardedForks.push_back({CB, std::move(List)});
        else
          Report.guardedAllocs.push_back({CB, std::move(List), std::move(Allocations)});
      }
  }

  /// ThreadBranchReport::guardedSerial.
  std::vector<ThreadBranchReport::GuardedEdge> guardedSerial() {
    std::vector<ThreadBranchReport::GuardedEdge> Out;
    for (const auto &[Fn, List] : Tested) {
      if (isRegionBody(*Fn))
        continue;
      DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(*Fn);
      LoopInfo &LI = FAM.getResult<LoopAnalysis>(*Fn);
      for (const auto &[BI, F] : List) {
        BasicBlock *From = BI->getParent();
        if (BI->getSuccessor(0) == BI->getSuccessor(1) || LI.getLoopFor(From))
          continue;
        BasicBlockEdge Then(From, BI->getSuccessor(0)), Else(From, BI->getSuccessor(1));
        bool ThenWorks = doesWork(Then, DT, LI), ElseWorks = doesWork(Else, DT, LI);
        if (ThenWorks && !ElseWorks)
          Out.push_back({BI, 0, F.text()});
        else if (ElseWorks && !ThenWorks)
          Out.push_back({BI, 1, F.negated().text()});
      }
    }
    return Out;
  }

private:
  using TestSet = std::set<std::string>;

  /// Whether \p Fn is the outlined body of a region (passed to a fork).
  static bool isRegionBody(Function &Fn) {
    for (User *U : Fn.users()) {
      Value *V = U;
      if (auto *CE = dyn_cast<ConstantExpr>(U); CE && CE->isCast() && !CE->use_empty())
        V = *CE->user_begin();
      if (auto *CB = dyn_cast<CallBase>(V); CB && isForkCall(CB->getCalledFunction()))
        return true;
    }
    return false;
  }
  /// Per function that only direct calls reach, the tests its call sites
  /// are under (nullopt: not known yet, which constrains nothing).
  using CalledUnder = std::map<Function *, std::optional<TestSet>>;
  /// What the other way of a branch must not do for one way to be guarded.
  enum class Alternative { Work, WorkOrAllocation };

  static constexpr const char *Allocators[] = {"malloc",        "calloc", "realloc",
                                               "aligned_alloc", "_Znwm",  "_Znam"};

  /// CalledUnder to a fixpoint: each round can only take tests away, so
  /// this ends; a function no known caller reaches keeps none.
  CalledUnder calledUnder(Alternative A) {
    CalledUnder Known;
    for (Function &Fn : *Mod)
      if (onlyCalledDirectly(Fn))
        Known[&Fn] = std::nullopt;
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (auto &[Fn, Tests] : Known) {
        std::optional<TestSet> Common;
        for (User *U : Fn->users()) {
          std::optional<TestSet> Site = under(*cast<CallBase>(U), Known, A);
          if (!Site)
            continue;
          if (!Common) {
            Common = *Site;
            continue;
          }
          TestSet Both;
          std::set_intersection(Common->begin(), Common->end(), Site->begin(), Site->end(),
                                std::inserter(Both, Both.end()));
          Common = std::move(Both);
        }
        if (Common && Common != Tests) {
          Tests = Common;
          Changed = true;
        }
      }
    }
    return Known;
  }

  /// The tests \p At runs under: the tested branches of its function whose
  /// one edge dominates it while the other does nothing \p A names, and
  /// those of its function's call sites; nullopt while the latter are not
  /// known.
  std::optional<TestSet> under(Instruction &At, const CalledUnder &Callers, Alternative A) {
    Function &Fn = *At.getFunction();
    TestSet Tests;
    if (auto C = Callers.find(&Fn); C != Callers.end()) {
      if (!C->second)
        return std::nullopt;
      Tests = *C->second;
    }
    auto It = Tested.find(&Fn);
    if (It == Tested.end())
      return Tests;
    DominatorTree &DT = FAM.getResult<DominatorTreeAnalysis>(Fn);
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(Fn);
    auto Idle = [&](const BasicBlockEdge &E) {
      return !doesWork(E, DT, LI) && (A == Alternative::Work || !allocatesOn(E, DT));
    };
    for (const auto &[BI, F] : It->second) {
      BasicBlock *From = BI->getParent();
      BasicBlock *Then = BI->getSuccessor(0), *Else = BI->getSuccessor(1);
      if (Then == Else)
        continue;
      BasicBlockEdge ThenEdge(From, Then), ElseEdge(From, Else);
      if (DT.dominates(ThenEdge, At.getParent()) && Idle(ElseEdge))
        Tests.insert(F.text());
      else if (DT.dominates(ElseEdge, At.getParent()) && Idle(ThenEdge))
        Tests.insert(F.negated().text());
    }
    return Tests;
  }

  /// Whether code only edge \p E reaches allocates memory: an allocator
  /// call, or a call of a function of the module that calls one, a few
  /// calls deep.
  bool allocatesOn(const BasicBlockEdge &E, DominatorTree &DT) {
    for (BasicBlock &BB : *const_cast<Function *>(E.getStart()->getParent()))
      if (DT.dominates(E, &BB))
        for (Instruction &I : BB)
          if (auto *CB = dyn_cast<CallBase>(&I);
              CB && CB->getCalledFunction() && allocates(*CB->getCalledFunction()))
            return true;
    return false;
  }

  bool allocates(Function &F, unsigned Depth = 3) {
    if (F.isDeclaration())
      return llvm::is_contained(Allocators, F.getName()) || F.getName() == "posix_memalign";
    if (Depth == 0)
      return false;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && CB->getCalledFunction() && allocates(*CB->getCalledFunction(), Depth - 1))
        return true;
    return false;
  }

  /// The allocator calls whose memory \p CB may return: itself if it calls
  /// one (malloc, calloc, realloc, aligned_alloc, new, new[]), else those
  /// of the body it calls where that is a loop-free function of the module
  /// (LULESH's Allocate<T>), a few calls deep. The runtime takes the
  /// returned pointer for the last allocation its thread noted only when
  /// they are the same.
  void allocationsReturned(CallBase &CB, std::vector<CallBase *> &Out, unsigned Depth = 3) {
    Function *F = CB.getCalledFunction();
    if (!F)
      return;
    if (F->isDeclaration()) {
      if (llvm::is_contained(Allocators, F->getName()))
        Out.push_back(&CB);
      return;
    }
    if (Depth == 0 || !F->getReturnType()->isPointerTy() ||
        !FAM.getResult<LoopAnalysis>(*F).empty())
      return;
    for (Instruction &I : instructions(*F))
      if (auto *Inner = dyn_cast<CallBase>(&I); Inner && Inner->getType()->isPointerTy())
        allocationsReturned(*Inner, Out, Depth - 1);
  }

  /// A function with a body that only direct calls in this module reach.
  static bool onlyCalledDirectly(Function &Fn) {
    if (Fn.isDeclaration() || !Fn.hasLocalLinkage() || Fn.use_empty())
      return false;
    for (Use &U : Fn.uses()) {
      auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U))
        return false;
    }
    return true;
  }

  void mark(Value *V, unsigned D, Fact F) {
    if (D > MaxDepth)
      return;
    if (Poisoned.count({V, D}))
      F = Fact::derived();
    auto [It, New] = Facts.try_emplace({V, D}, F);
    if (!New) {
      Fact J = It->second.join(F);
      if (J == It->second)
        return;
      It->second = J;
    }
    Work.push_back({V, D});
  }

  bool holds(Value *V, unsigned D, Fact F) const {
    auto It = Facts.find({V, D});
    return It != Facts.end() && It->second == F;
  }

  Key root(Key K) {
    auto It = Alias.find(K);
    if (It == Alias.end() || It->second == K)
      return K;
    return It->second = root(It->second);
  }
  void sameMemory(Key A, Key B) {
    Key RA = root(A), RB = root(B);
    if (RA != RB)
      Alias[RA] = RB;
    Alias.try_emplace(RB, RB);
  }
  /// The class of the pointers slot \p Slot holds (one of them stands for it).
  void heldBy(Key Slot, Key Pointer) {
    auto [It, New] = Contents.try_emplace(Slot, Pointer);
    sameMemory(Pointer, It->second);
  }

  void follow(Value *V, unsigned D, Fact F, User *U) {
    if (auto *CB = dyn_cast<CallBase>(U)) {
      intoCallee(V, D, F, *CB);
      return;
    }
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == V) {
        Value *To = SI->getPointerOperand()->stripPointerCasts();
        if (isa<AllocaInst>(To) || isa<GlobalVariable>(To)) {
          mark(To, D + 1, F);
          if (D > 0)
            heldBy({To, D + 1}, {V, D});
        }
      }
      return;
    }
    if (D > 0) { // V points at the value: follow the pointer, not arithmetic on it
      if (isa<LoadInst>(U)) {
        mark(U, D - 1, F);
        if (D > 1)
          heldBy({V, D}, {U, D - 1});
      } else if (auto *Op = dyn_cast<Operator>(U);
                 Op && (Op->getOpcode() == Instruction::BitCast ||
                        Op->getOpcode() == Instruction::AddrSpaceCast)) {
        mark(U, D, F);
        sameMemory({V, D}, {U, D});
      }
      return;
    }
    if (auto *CI = dyn_cast<CastInst>(U)) {
      bool Widens = isa<ZExtInst>(CI) || isa<SExtInst>(CI);
      bool Narrows = isa<TruncInst>(CI) && !CI->getType()->isIntegerTy(1);
      bool BoolOf = isa<TruncInst>(CI) && F.K == Fact::Test; // a stored bool read back
      mark(U, 0, Widens || Narrows || BoolOf ? F : Fact::derived());
      return;
    }
    if (auto *Cmp = dyn_cast<ICmpInst>(U)) {
      mark(U, 0, compared(V, F, *Cmp));
      return;
    }
    if (auto *BO = dyn_cast<BinaryOperator>(U)) {
      // `!b` on a bool is `xor b, true`.
      auto *Other = dyn_cast<ConstantInt>(BO->getOperand(BO->getOperand(0) == V ? 1 : 0));
      bool Not = BO->getOpcode() == Instruction::Xor && Other && Other->isOne() &&
                 BO->getType()->isIntegerTy(1);
      mark(U, 0, Not ? F.negated() : Fact::derived());
      return;
    }
    if (isa<FreezeInst>(U)) {
      mark(U, 0, F);
      return;
    }
    if (isa<CmpInst>(U) || isa<SelectInst>(U) || isa<PHINode>(U) || isa<UnaryOperator>(U)) {
      mark(U, 0, Fact::derived());
      return;
    }
    if (auto *BI = dyn_cast<BranchInst>(U)) {
      if (BI->isConditional() && BI->getCondition() == V && !controlsLoop(*BI))
        record(*BI, F.K == Fact::Test ? F : Fact::derived());
      return;
    }
    if (auto *SW = dyn_cast<SwitchInst>(U))
      if (SW->getCondition() == V)
        record(*SW, Fact::derived());
  }

  /// The fact of `icmp` \p Cmp with the tainted \p V (fact \p F) as an operand.
  static Fact compared(Value *V, Fact F, ICmpInst &Cmp) {
    bool First = Cmp.getOperand(0) == V;
    Value *Other = Cmp.getOperand(First ? 1 : 0);
    auto *K = dyn_cast<ConstantInt>(Other);
    if (!K || Other == V)
      return Fact::derived();
    CmpInst::Predicate P = First ? Cmp.getPredicate() : Cmp.getSwappedPredicate();
    if (F.K == Fact::Count)
      return Fact::test(P, K->getValue());
    // A bool tested again: `b != 0` is b, `b == 0` its negation.
    if (F.K == Fact::Test && K->isZero() && (P == CmpInst::ICMP_NE || P == CmpInst::ICMP_EQ))
      return P == CmpInst::ICMP_NE ? F : F.negated();
    return Fact::derived();
  }

  /// The parameter of a defined function that argument \p I of \p CB
  /// becomes, or null. A region's captured variables go through
  /// __kmpc_fork_call(ident, argc, body, ...) into body(gtid*, btid*, ...).
  static Argument *paramOf(CallBase &CB, unsigned I) {
    Function *To = CB.getCalledFunction();
    unsigned Param = I;
    if (isForkCall(To)) {
      if (I < 3)
        return nullptr;
      To = dyn_cast<Function>(CB.getArgOperand(2)->stripPointerCasts());
      Param = I - 1;
    }
    if (!To || To->isDeclaration() || Param >= To->arg_size())
      return nullptr;
    return To->getArg(Param);
  }

  // An argument carries its taint into the callee's parameter.
  void intoCallee(Value *V, unsigned D, Fact F, CallBase &CB) {
    for (unsigned I = 0; I < CB.arg_size(); ++I) {
      if (CB.getArgOperand(I) != V)
        continue;
      if (Argument *A = paramOf(CB, I)) {
        mark(A, D, F);
        if (D > 0)
          sameMemory({V, D}, {A, D});
      }
    }
  }

  /// Marks every key that claims the count (or a test of it) while
  /// something else may be in it, with every pointer to the same memory;
  /// true if any was new.
  bool poisonOthers() {
    DenseSet<Key> BadClasses;
    std::vector<Key> Bad;
    for (const auto &[K, F] : Facts) {
      if (F.K == Fact::Derived)
        continue;
      bool Holds = true;
      if (auto *A = dyn_cast<Argument>(K.first))
        Holds = everyCallPasses(*A, K.second, F);
      if (Holds && K.second > 0)
        Holds = onlyTaintedWrites(K.first, K.second, F);
      if (!Holds) {
        Bad.push_back(K);
        if (K.second > 0)
          BadClasses.insert(root(K));
      }
    }
    for (const auto &[K, F] : Facts)
      if (K.second > 0 && F.K != Fact::Derived && BadClasses.count(root(K)))
        Bad.push_back(K);
    bool Changed = false;
    for (const Key &K : Bad)
      Changed |= Poisoned.insert(K).second;
    return Changed;
  }

  /// Whether every call of \p A's function passes a value of fact \p Fa in it.
  bool everyCallPasses(Argument &A, unsigned D, Fact Fa) const {
    Function *F = A.getParent();
    SmallVector<User *, 8> Uses(F->users());
    while (!Uses.empty()) {
      User *U = Uses.pop_back_val();
      if (auto *CE = dyn_cast<ConstantExpr>(U); CE && CE->isCast()) {
        Uses.append(CE->user_begin(), CE->user_end());
        continue;
      }
      auto *CB = dyn_cast<CallBase>(U);
      if (!CB)
        return false; // its address is taken: unknown callers
      bool Passes = false; // a call of F (or a fork of it) that fills A
      for (unsigned I = 0; I < CB->arg_size(); ++I)
        if (paramOf(*CB, I) == &A) {
          if (!holds(CB->getArgOperand(I), D, Fa))
            return false;
          Passes = true;
        }
      if (!Passes)
        return false;
    }
    return true;
  }

  /// Whether everything written through pointer \p P (depth \p D) is of
  /// fact \p F, and it leaves only into slots and parameters the taint
  /// follows.
  bool onlyTaintedWrites(Value *P, unsigned D, Fact F) const {
    for (User *U : P->users()) {
      if (isa<LoadInst>(U))
        continue;
      if (auto *SI = dyn_cast<StoreInst>(U)) {
        if (SI->getPointerOperand() == P) {
          if (!holds(SI->getValueOperand(), D - 1, F))
            return false;
          continue;
        }
        Value *To = SI->getPointerOperand()->stripPointerCasts();
        if (!isa<AllocaInst>(To) && !isa<GlobalVariable>(To))
          return false; // into a field or through a pointer: not followed
        continue;
      }
      if (auto *Op = dyn_cast<Operator>(U); Op && (Op->getOpcode() == Instruction::BitCast ||
                                                  Op->getOpcode() == Instruction::AddrSpaceCast)) {
        if (!onlyTaintedWrites(U, D, F))
          return false;
        continue;
      }
      if (auto *II = dyn_cast<IntrinsicInst>(U); II && (II->isLifetimeStartOrEnd() ||
                                                        isa<DbgInfoIntrinsic>(II)))
        continue;
      if (auto *CB = dyn_cast<CallBase>(U)) {
        if (!passesIntoDefinedBody(P, *CB))
          return false;
        continue;
      }
      return false;
    }
    return true;
  }

  /// Whether \p CB passes \p P only as arguments the taint follows into a
  /// defined function (whose parameter is then checked on its own).
  static bool passesIntoDefinedBody(Value *P, CallBase &CB) {
    bool Passed = false; // not the callee, nor only in an operand bundle
    for (unsigned I = 0; I < CB.arg_size(); ++I)
      if (CB.getArgOperand(I) == P) {
        if (!paramOf(CB, I))
          return false;
        Passed = true;
      }
    return Passed && CB.getCalledOperand() != P;
  }

  /// Whether code only edge \p E reaches does work of its own: a loop, a
  /// region, or a call of anything but a cheap function (LULESH allocates
  /// its per-element arrays under the branch).
  bool doesWork(const BasicBlockEdge &E, DominatorTree &DT, LoopInfo &LI) {
    std::vector<CallBase *> Forks;
    return !onlyRegions(E, DT, LI, Forks) || !Forks.empty();
  }

  /// Whether code only edge \p E reaches forks regions (appended to
  /// \p Forks) and otherwise does no work: no loop, no call but of cheap
  /// functions.
  bool onlyRegions(const BasicBlockEdge &E, DominatorTree &DT, LoopInfo &LI,
                   std::vector<CallBase *> &Forks) {
    for (BasicBlock &BB : *const_cast<Function *>(E.getStart()->getParent())) {
      if (!DT.dominates(E, &BB))
        continue;
      if (LI.isLoopHeader(&BB))
        return false;
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || isa<DbgInfoIntrinsic>(CB))
          continue;
        Function *Callee = CB->getCalledFunction();
        if (Callee && isForkCall(Callee))
          Forks.push_back(CB);
        else if (!Callee || !isCheap(*Callee))
          return false;
      }
    }
    return true;
  }

  /// The OpenMP runtime's queries, allocation and printing, and functions of
  /// the module that only call such (LULESH's Release<T>, a free()), a few
  /// calls deep, without loops.
  bool isCheap(Function &F, unsigned Depth = 3) {
    static const char *const Cheap[] = {"malloc", "calloc", "realloc", "free", "posix_memalign",
                                        "aligned_alloc", "printf", "fprintf", "puts", "putchar",
                                        "fputs", "fflush", "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv"};
    StringRef N = F.getName();
    if (isForkCall(&F))
      return false;
    if (N.startswith("omp_") || N.startswith("__kmpc_") || N.startswith("llvm."))
      return true;
    if (F.isDeclaration())
      return llvm::is_contained(Cheap, N);
    if (Depth == 0)
      return false;
    if (auto It = CheapBodies.find(&F); It != CheapBodies.end())
      return It->second;
    CheapBodies[&F] = false; // while it is looked at: recursion is not cheap
    bool Body = FAM.getResult<LoopAnalysis>(F).empty();
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!Body || !CB || isa<DbgInfoIntrinsic>(CB))
        continue;
      Function *Callee = CB->getCalledFunction();
      Body = Callee && isCheap(*Callee, Depth - 1);
    }
    return CheapBodies[&F] = Body;
  }

  bool controlsLoop(BranchInst &BI) {
    BasicBlock *BB = BI.getParent();
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(*BB->getParent());
    Loop *L = LI.getLoopFor(BB);
    return L && L->isLoopExiting(BB);
  }

  void record(Instruction &I, Fact F) {
    std::string Site = ("function " + I.getFunction()->getName()).str();
    if (const DebugLoc &DL = I.getDebugLoc())
      if (auto *Scope = dyn_cast<DIScope>(DL.getScope()); Scope && DL.getLine())
        // The base name, as in construct ids (runtime/README.md).
        Site = (sys::path::filename(Scope->getFilename()) + ":" + Twine(DL.getLine()) + ":" +
                Twine(DL.getCol()))
                   .str();
    auto [It, New] = Sites.try_emplace(Site, F);
    if (!New)
      It->second = It->second.join(F);
    if (auto *BI = dyn_cast<BranchInst>(&I)) {
      auto [At, First] = Branches.try_emplace(BI, F);
      if (!First)
        At->second = At->second.join(F);
      SiteOf[BI] = Site;
    }
  }

  FunctionAnalysisManager &FAM;
  Module *Mod = nullptr;
  DenseMap<Key, Fact> Facts;
  DenseSet<Key> Poisoned;
  DenseMap<Key, Key> Alias;    ///< union-find over pointers to the same memory
  DenseMap<Key, Key> Contents; ///< slot -> a pointer of the class it holds
  SmallVector<Key, 32> Work;
  std::map<std::string, Fact> Sites;
  /// Each conditional branch on the count with what its condition is
  /// (joined, like the sites: a condition the taint later finds to be
  /// something else than the test no longer guards anything).
  DenseMap<BranchInst *, Fact> Branches;
  DenseMap<BranchInst *, std::string> SiteOf; ///< each branch's site, without its test
  DenseMap<Function *, bool> CheapBodies;      ///< isCheap's answers for defined functions
  /// The branches with a test, per function (guardedForks).
  std::map<Function *, std::vector<std::pair<BranchInst *, Fact>>> Tested;
};

} // namespace

ThreadBranchReport findThreadBranches(Module &M, FunctionAnalysisManager &FAM) {
  Taint T(FAM);
  T.run(M);
  ThreadBranchReport R;
  R.sites = T.sites();
  T.guardedCalls(R);
  R.guardedSerial = T.guardedSerial();
  R.regionOnlySites = T.regionOnlySites();
  return R;
}

} // namespace phaseprobe
