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
//===----------------------------------------------------------------------===//
#include "ThreadBranches.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Path.h"

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

bool isForkCall(const Function *F) {
  return F && (F->getName() == "__kmpc_fork_call" || F->getName() == "__kmpc_fork_teams");
}

// Three levels of pointers to the value are followed (a shared variable's
// address kept in an outlined body's slot is two); deeper ones are not.
constexpr unsigned MaxDepth = 3;

class Taint {
public:
  explicit Taint(FunctionAnalysisManager &FAM) : FAM(FAM) {}

  void seed(Value *V) { mark(V, 0); }

  void run() {
    while (!Work.empty()) {
      auto [V, D] = Work.pop_back_val();
      for (User *U : V->users())
        follow(V, D, U);
    }
  }

  std::vector<std::string> sites() const { return {Sites.begin(), Sites.end()}; } // sorted

private:
  void mark(Value *V, unsigned D) {
    if (D > MaxDepth || !Seen.insert({V, D}).second)
      return;
    Work.push_back({V, D});
  }

  void follow(Value *V, unsigned D, User *U) {
    if (auto *CB = dyn_cast<CallBase>(U)) {
      intoCallee(V, D, *CB);
      return;
    }
    if (auto *SI = dyn_cast<StoreInst>(U)) {
      if (SI->getValueOperand() == V) {
        Value *To = SI->getPointerOperand()->stripPointerCasts();
        if (isa<AllocaInst>(To) || isa<GlobalVariable>(To))
          mark(To, D + 1);
      }
      return;
    }
    if (D > 0) { // V points at the value: follow the pointer, not arithmetic on it
      if (isa<LoadInst>(U))
        mark(U, D - 1);
      else if (auto *Op = dyn_cast<Operator>(U);
               Op && (Op->getOpcode() == Instruction::BitCast ||
                      Op->getOpcode() == Instruction::AddrSpaceCast))
        mark(U, D);
      return;
    }
    if (isa<CastInst>(U) || isa<BinaryOperator>(U) || isa<UnaryOperator>(U) ||
        isa<CmpInst>(U) || isa<SelectInst>(U) || isa<PHINode>(U) || isa<FreezeInst>(U)) {
      mark(U, 0);
      return;
    }
    if (auto *BI = dyn_cast<BranchInst>(U)) {
      if (BI->isConditional() && BI->getCondition() == V && !controlsLoop(*BI))
        record(*BI);
      return;
    }
    if (auto *SW = dyn_cast<SwitchInst>(U))
      if (SW->getCondition() == V)
        record(*SW);
  }

  // An argument carries its taint into the callee's parameter; a region's
  // captured variables go through __kmpc_fork_call(ident, argc, body, ...)
  // into body(gtid*, btid*, ...).
  void intoCallee(Value *V, unsigned D, CallBase &CB) {
    Function *Callee = CB.getCalledFunction();
    for (unsigned I = 0; I < CB.arg_size(); ++I) {
      if (CB.getArgOperand(I) != V)
        continue;
      Function *To = Callee;
      unsigned Param = I;
      if (isForkCall(Callee)) {
        if (I < 3)
          continue;
        To = dyn_cast<Function>(CB.getArgOperand(2)->stripPointerCasts());
        Param = I - 1;
      }
      if (To && !To->isDeclaration() && Param < To->arg_size())
        mark(To->getArg(Param), D);
    }
  }

  bool controlsLoop(BranchInst &BI) {
    BasicBlock *BB = BI.getParent();
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(*BB->getParent());
    Loop *L = LI.getLoopFor(BB);
    return L && L->isLoopExiting(BB);
  }

  void record(Instruction &I) {
    if (const DebugLoc &DL = I.getDebugLoc())
      if (auto *Scope = dyn_cast<DIScope>(DL.getScope()); Scope && DL.getLine()) {
        // The base name, as in construct ids (runtime/README.md).
        Sites.insert((sys::path::filename(Scope->getFilename()) + ":" + Twine(DL.getLine()) +
                      ":" + Twine(DL.getCol()))
                         .str());
        return;
      }
    Sites.insert(("function " + I.getFunction()->getName()).str());
  }

  FunctionAnalysisManager &FAM;
  DenseSet<std::pair<Value *, unsigned>> Seen;
  SmallVector<std::pair<Value *, unsigned>, 32> Work;
  std::set<std::string> Sites;
};

} // namespace

std::vector<std::string> findThreadBranches(Module &M, FunctionAnalysisManager &FAM) {
  Taint T(FAM);
  for (Function &F : M) {
    if (!isThreadCountQuery(&F))
      continue;
    for (User *U : F.users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && CB->getCalledFunction() == &F)
        T.seed(CB);
  }
  T.run();
  return T.sites();
}

} // namespace phaseprobe
