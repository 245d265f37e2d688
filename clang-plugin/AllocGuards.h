//===- AllocGuards.h - Tell the runtime of memory allocated under a test --*- C++ -*-===//
//
// LULESH allocates per-element force arrays only `if (numthreads > 1)`, and
// the first touches of that memory are page faults of the region that
// fills them: a third of its time on two threads, none on one. The base run
// cannot tell those faults from the region's others by counting; the
// runtime can, if it knows which memory is allocated under the test. This
// tells it, after each call ThreadBranches found allocating only under a
// test of the thread count, what the call returned and under which tests.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ThreadBranches.h"

namespace llvm {
class Module;
}

namespace phaseprobe {

/// After every allocator call of \p Allocs (each allocation of an entry,
/// once), a call __phaseprobe_alloc_note(pointer, bytes); after every
/// entry's call, __phaseprobe_guarded_alloc(pointer, tests, count). Both
/// through weak references checked at each call, so an object links and
/// runs with a runtime that predates them (runtime/include/.../interface.h).
void tellGuardedAllocs(llvm::Module &M,
                       const std::vector<ThreadBranchReport::GuardedAlloc> &Allocs);

} // namespace phaseprobe
