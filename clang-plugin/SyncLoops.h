//===- SyncLoops.h - Loops that synchronize threads rather than work -*- C++ -*-===//
//
// Two kinds of innermost loop end only by another thread's doing, so their
// trip count measures waiting, not work: a compare-and-swap retry loop
// (clang's lowering of an atomic update such as a floating-point
// reduction's combine step) and a spin wait (`while (flag[i] == 0) {
// #pragma omp flush }`, NPB LU's pipeline). Neither counts as iterations,
// neither is worth a stream sample; a spin wait's waits are counted apart,
// because what one costs depends on the node (a cache-line transfer on idle
// cores, the rest of a time slice when the waiting thread shares a core
// with the one it waits for).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class Loop;
} // namespace llvm

namespace phaseprobe {

enum class SyncLoopKind {
  None,
  Retry, ///< contains a cmpxchg: an atomic update retried until it wins
  Spin,  ///< stores no memory and no loop state (a local's stored value
         ///< computed from that local: an index, an accumulator; a
         ///< temporary such as a C11 atomic load's is fine), calls nothing
         ///< but `omp flush`, and reads through a flush, an atomic or a
         ///< volatile load: only a write by another thread can end it
};

/// What \p L is, on clang's unoptimized IR (locals are still allocas).
/// Stores to phaseprobe's own counters (the `__phaseprobe*` globals, and the
/// constants of the armed flag the instrumentation adds) do not count, so
/// the answer is the same before and after instrumentation.
SyncLoopKind syncLoopKind(const llvm::Loop &L);

} // namespace phaseprobe
