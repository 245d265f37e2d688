//===- CounterTbaa.h - Type-based alias tag for phaseprobe's counters -*- C++ -*-===//
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

namespace llvm {
class Instruction;
class MDNode;
class Module;
} // namespace llvm

namespace phaseprobe {

/// The access tag of phaseprobe's counters in \p M's TBAA tree (the root
/// clang gave the module's own accesses: C and C++ have different roots),
/// or null when the module has no type-based alias information (-O0).
llvm::MDNode *counterTbaaTag(llvm::Module &M);

/// Tags \p I (a load or store of a counter) with \p Tag when there is one.
void tagCounterAccess(llvm::Instruction *I, llvm::MDNode *Tag);

} // namespace phaseprobe
