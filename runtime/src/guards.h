//===- guards.h - Memory and serial code only under a test of the count -*- C++ -*-===//
//
// Internal to the runtime. A program that allocates memory only where a test
// of the thread count holds (LULESH's per-element force arrays under
// `if (numthreads > 1)`) pays the first touches of that memory as page faults
// of the region that fills it, and does not pay them at a count that fails
// the test. The plugin reports such allocations (interface.h,
// __phaseprobe_guarded_alloc); this keeps their pages and, around each
// counted fork of a top-level region, counts with mincore(2) how many became
// resident during it: the region's faults that happen only under the tests.
// Serial code that runs only under a test (the plugin brackets it) is timed
// the same way, per set of tests, without the regions forked inside it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace __phaseprobe {

/// Before a top-level region's fork whose page faults are counted.
void guardedForkBegin();

/// After that fork of phase \p Phase, which faulted \p Faults times in all:
/// the pages of guarded memory that became resident during it, at most
/// \p Faults, are charged to \p Phase under their tests.
void guardedForkEnd(uint32_t Phase, uint64_t Faults);

/// The faults charged to \p Phase, per set of tests: at most \p Cap sets
/// into \p Tests (each a list of *\p Counts[i] strings, at most 4) and
/// \p Faults; returns how many were stored.
uint32_t guardedFaults(uint32_t Phase, const char *const **Tests, uint32_t *Counts,
                       uint64_t *Faults, uint32_t Cap);

/// After a top-level region's fork of \p Ns (the forking thread's time in
/// it, which a guarded stretch of serial code around it does not count).
void guardedForkTime(uint64_t Ns);

/// The serial time spent under each set of tests (the plugin's
/// __phaseprobe_serial_guard_begin/end: LULESH's `numthreads > 1` setup
/// and frees), as guardedFaults: returns how many were stored.
uint32_t guardedSerial(const char *const **Tests, uint32_t *Counts, double *Seconds, uint32_t Cap);

} // namespace __phaseprobe
