//===- CounterStep.h - The iteration counters' step, opaque after vectorization -*- C++ -*-===//
//
// Every innermost loop adds 1 per iteration to a function-local counter
// (InstrumentPass). Where the optimizer can compute the loop's trip count,
// IndVarSimplify folds the counter into its exit value and it costs nothing.
// Where it cannot (the bound reloaded in every iteration, as in OpenMP
// worksharing loops with a call in the body), the counter survives as a
// second induction variable from 0, and the loop strength reduction, which
// runs in the back end, rebuilt the loop around it: the loop's own index
// became counter + start, one more add for every address (LULESH's element
// loops; with the kept copies of StreamSampling.cpp, LULESH -s 20 with
// sampling off went from +7.1% to +0.7% instructions over plain,
// bench/results/overhead-2026-11-24-counter-step-off.txt). After the
// vectorizer, CounterStepPass replaces the step 1 of such counters, in
// loops with another index, by a load of the module's __phaseprobe.one:
// the same 1, externally initialized, so no constant the strength
// reduction can build addresses on. Made opaque earlier, the step kept the
// exit value from folding and changed the vectorizer's choices; in loops
// without another index it would only cost a register.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/PassManager.h"

namespace llvm {
class Instruction;
}

namespace phaseprobe {

/// Marks \p Add (counter + 1 in a loop latch) as an iteration counter's step.
void markCounterStep(llvm::Instruction &Add);

struct CounterStepPass : llvm::PassInfoMixin<CounterStepPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace phaseprobe
