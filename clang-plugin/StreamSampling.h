//===- StreamSampling.h - Memory-stream sampling pass -----------*- C++ -*-===//
//
// The compiler half of Instrumentation II: every function that parallel
// regions run (outlined region bodies, functions with orphaned worksharing
// constructs, and the functions of the TU they call) gets a sampling copy
// in which every innermost loop has an instrumented clone that reports each
// load and store to the runtime during a short burst of iterations, entered
// when a per-thread, per-loop countdown in the preheader runs out. The
// program's own functions keep their code (optimized as in the plain
// build); a region body or orphaned-construct function enters its copy for
// one invocation in PHASEPROBE_SAMPLE_INVOCATIONS. Clones are marked never
// to vectorize, so sampled element sizes and strides are the source
// program's. Runs at the pipeline start, right after the phase
// instrumentation, on clang's raw IR. See README.md, "Stream sampling".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/PassManager.h"

namespace phaseprobe {

class StreamSamplingPass : public llvm::PassInfoMixin<StreamSamplingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  /// Must run at -O0 too, where functions are optnone.
  static bool isRequired() { return true; }
};

} // namespace phaseprobe
