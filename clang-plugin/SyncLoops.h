//===- SyncLoops.h - Loops that synchronize threads rather than work -*- C++ -*-===//
//
// Some innermost loops end only by another thread's doing, so their trip
// count measures waiting, not work: a compare-and-swap retry loop
// (clang's lowering of an atomic update such as a floating-point
// reduction's combine step) and a spin wait (`while (flag[i] == 0) {
// #pragma omp flush }`, NPB LU's pipeline), with or without giving the core
// away while it waits. None counts as iterations, none is worth a stream
// sample; the waits of a spin that holds its core are counted apart,
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
         ///< but `omp flush` or a pause hint, and reads through a flush, an
         ///< atomic or a volatile load: only a write by another thread can
         ///< end it, and the waiting thread holds its core meanwhile
  Yield, ///< a spin wait that gives its core away (sched_yield, usleep,
         ///< nanosleep; a plain load after such an opaque call reads anew):
         ///< on a shared core the thread it waits for runs at once, so a
         ///< round costs a system call, not the rest of a time slice, and
         ///< is not priced as one
};

/// What \p L is, on clang's unoptimized IR (locals are still allocas).
/// Stores to phaseprobe's own counters (the `__phaseprobe*` globals, and the
/// constants of the armed flag the instrumentation adds) do not count, so
/// the answer is the same before and after instrumentation. Only \p L's own
/// blocks decide, not its inner loops'.
SyncLoopKind syncLoopKind(const llvm::Loop &L);

/// Whether \p L is a compare-and-swap retry without loops of its own: one
/// atomic update, retried until it wins.
bool isAtomicRetry(const llvm::Loop &L);

/// Whether \p L's inner loops, if any, are all such retries (isAtomicRetry):
/// clang lowers an atomic update of a double (`#pragma omp atomic` on
/// `h[idx[i]] += v[i]`) as such a loop, one win per iteration of \p L, so
/// \p L is where the work runs, as an innermost loop is (its iterations
/// count, its accesses are sampled, its operations make the op mix).
bool onlyRetriesInside(const llvm::Loop &L);

} // namespace phaseprobe
