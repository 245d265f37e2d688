//===- CounterTbaa.h - phaseprobe's counters, updated with their own alias tag -*- C++ -*-===//
//
// phaseprobe's thread-local counters (iterations, barriers, sampling
// countdowns) are updated inside the program's loops. Untagged, such an i64
// store may alias every access of the loop, so the optimizer can neither
// keep the counter in a register across the loop nor vectorize the loop
// around it: the instrumented program got slower than the plain one, and
// the base run's times with it. Tagged as a type of its own in the
// program's TBAA tree, the counter aliases only itself and char accesses.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/IRBuilder.h"

namespace llvm {
class GlobalVariable;
class MDNode;
class Module;
} // namespace llvm

namespace phaseprobe {

/// The access tag of phaseprobe's counters in \p M's TBAA tree (the root
/// clang gave the module's own accesses: C and C++ have different roots),
/// or null when the module has no type-based alias information (-O0).
llvm::MDNode *counterTbaaTag(llvm::Module &M);

/// The runtime's thread-local i64 counter \p Name (`__phaseprobe_iterations`,
/// `__phaseprobe_in_copy`, ...) in \p M: the module's declaration, or a new
/// external one, initial-exec like the runtime's definition.
llvm::GlobalVariable *runtimeCounter(llvm::Module &M, const char *Name);

/// Adds \p Delta to the i64 counter at \p Counter at \p B's insertion
/// point (load, add, store, both accesses tagged with \p Tag when there is
/// one); returns the new value.
llvm::Value *addToCounter(llvm::IRBuilder<> &B, llvm::Value *Counter, llvm::Value *Delta,
                          llvm::MDNode *Tag);

} // namespace phaseprobe
