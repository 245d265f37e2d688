//===- InstrumentPass.h - OpenMP phase instrumentation pass -----*- C++ -*-===//
//
// The LLVM pass of libphaseprobe.so. It runs on clang's IR before any
// optimization (pipeline-start extension point), so what it inserts is the
// same at -O0..-O3 and the optimizer then treats the probes like any call.
// It finds OpenMP constructs by the libomp entry points clang emits
// (__kmpc_fork_call, __kmpc_for_static_init_*, ...), reads each one's source
// location from its ident_t, emits one descriptor per construct, probe calls
// around it (runtime/include/phaseprobe/interface.h), and counts innermost
// loop iterations in every function.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/PassManager.h"

namespace phaseprobe {

class InstrumentPass : public llvm::PassInfoMixin<InstrumentPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
  /// Must run at -O0 too, where functions are optnone.
  static bool isRequired() { return true; }
};

} // namespace phaseprobe
