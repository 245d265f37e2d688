//===- ThreadBranches.h - Code that branches on the thread count -*- C++ -*-===//
//
// A program that chooses its code by its thread count (LULESH's
// `if (numthreads > 1)` adds gather loops and per-element force arrays) runs
// another program at another thread count, and no projection of one base
// run can see that. The instrumentation cannot fix it, but it can find it:
// this reports where the code branches on a value computed from the OpenMP
// thread count, so the estimate can say so where it changes thread counts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/PassManager.h"

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class BranchInst;
class CallBase;
}

namespace phaseprobe {

struct ThreadBranchReport {
  /// "file:line:col" or "function <name>", ending in the test where known.
  std::vector<std::string> sites;
  /// Fork calls that only a tested branch's one way reaches, where the
  /// other way does no work of its own (LULESH's gather loops under
  /// `if (numthreads > 1)`), each with the tests that must hold for it to
  /// run ("threads > 1"), sorted: at a thread count where one fails the
  /// region does not run, and nothing runs in its place.
  std::vector<std::pair<llvm::CallBase *, std::vector<std::string>>> guardedForks;
  /// Calls that allocate memory only under the tests of a tested branch's
  /// one way, where the other does no work (LULESH's per-element force
  /// arrays under `if (numthreads > 1)`): where a test fails, the page
  /// faults of their first touches do not happen either.
  struct GuardedAlloc {
    llvm::CallBase *call;
    std::vector<std::string> tests; ///< sorted, as guardedForks'
    /// The allocator calls whose memory `call` returns: `call` itself, or
    /// those in the module's function it calls (Allocate<T>).
    std::vector<llvm::CallBase *> allocations;
  };
  std::vector<GuardedAlloc> guardedAllocs;
  /// Serial code only one way of a tested branch reaches, where the other
  /// way does no work (LULESH's thread-support setup and the frees after
  /// its gather loops): branches outside loops, in functions that are no
  /// region's body, whose way `successor` does work. Where the test fails
  /// that time is not spent (the regions forked inside are timed apart).
  struct GuardedEdge {
    llvm::BranchInst *branch;
    unsigned successor;
    std::string test;
  };
  std::vector<GuardedEdge> guardedSerial;
  /// Sites (as in `sites`) whose every branch only decides whether regions
  /// run: one way forks them and does nothing else of note (no loop, no
  /// call but the OpenMP runtime's, allocation and printing), the other
  /// way does no work. Once those regions carry the test (`test`), the
  /// estimate models the branch exactly, and the site need not be listed.
  struct RegionOnlySite {
    std::string site, test;
    std::vector<llvm::CallBase *> forks;
  };
  std::vector<RegionOnlySite> regionOnlySites;
};

/// Where \p M's code takes a conditional branch or a switch on a value
/// derived from omp_get_max_threads(), omp_get_num_threads(),
/// omp_get_num_procs() or omp_get_thread_limit(): through arithmetic,
/// compares, selects and phis, through loads of the locals and globals it
/// was stored to, and into the parameters of the functions it is passed to
/// (outlined region bodies included). Branches that control a loop (loop
/// exits, e.g. a loop over the threads merging partial results) are left
/// out: their cost grows with the thread count but they choose no other
/// code. Each site is "file:line:col" (base name, as in construct ids) from
/// the branch's debug location (the plugin switches location tracking on),
/// else "function <name>"; where the branch follows a comparison of
/// omp_get_max_threads()'s value itself with a constant, the site ends in
/// that test, " (threads > 1)" (operators > >= < <= == !=). Sorted, without
/// duplicates. A fork call is guarded by a tested branch whose one edge
/// dominates it, or dominates every call of its function where only direct
/// calls in the module reach that function (internal linkage), while the
/// other edge does no work of its own; an allocating call likewise. Must
/// run on clang's IR before mem2reg.
ThreadBranchReport findThreadBranches(llvm::Module &M, llvm::FunctionAnalysisManager &FAM);

} // namespace phaseprobe
