//===- GuardedSerial.h - Time serial code that runs only under a test -*- C++ -*-===//
//
// LULESH sets up its thread-support arrays and frees its per-element force
// arrays only `if (numthreads > 1)`: serial time a 2-thread base run spends
// and a 1-thread run does not (0.035 s of its 0.08 s outside regions). The
// estimate keeps serial code as measured; told how much of it ran under
// which test, it leaves that part out where the test fails.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ThreadBranches.h"

namespace phaseprobe {

/// Brackets the code each edge of \p Edges dominates with
/// __phaseprobe_serial_guard_begin(tests, 1) on the edge and
/// __phaseprobe_serial_guard_end() on every way out of it (weak references
/// checked at each call). Edges with a way out into an exception pad are
/// left alone. Splits blocks: run after every other instrumentation.
void timeGuardedSerial(llvm::Module &M,
                       const std::vector<ThreadBranchReport::GuardedEdge> &Edges);

} // namespace phaseprobe
