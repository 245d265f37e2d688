//===- runtime.h - Runtime lifetime: init, registry, exit flush -*- C++ -*-===//
//
// Internal to the runtime. The runtime starts lazily on the first call that
// needs it (an object's registration, normally before main) and writes the
// phase file once, from an atexit hook, in the process that started it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <pthread.h>

namespace __phaseprobe {

/// Process-wide facts captured at start-up.
struct ProcessInfo {
  uint64_t StartNs = 0;  ///< monotonic time at runtime start
  uint64_t StartFaults = 0; ///< the process's minor page faults at runtime start
  int Pid = 0;           ///< pid that started the runtime (writes the file)
  char Started[32] = {}; ///< wall-clock start, ISO 8601 UTC
  char *Argv = nullptr;  ///< NUL-separated argv as in /proc/self/cmdline
  uint32_t ArgvLen = 0;  ///< bytes in Argv
  bool Verbose = false;  ///< PHASEPROBE_VERBOSE=1
  pthread_t Starter{};   ///< the thread that started the runtime (main)
};

/// Starts the runtime if it is not started yet (thread-safe, idempotent).
void ensureStarted();

/// Facts captured by ensureStarted().
const ProcessInfo &processInfo();

/// Minor page faults of the whole process so far (getrusage).
uint64_t minorFaults();

/// Number of instrumented objects that registered (matching ABI or not).
uint32_t objectsRegistered();

/// Largest team size seen by any region (0 if no region ran).
uint32_t maxTeamSize();

/// Phase whose first execution happened inside region \p Index, or NoPhase.
uint32_t phaseParent(uint32_t Index);

/// Largest team size a phase executed with.
uint32_t phaseTeamSize(uint32_t Index);

/// The sites where instrumented code branches on the thread count
/// (__phaseprobe_thread_branches), in registration order; *More is how many
/// more there were than the table holds.
uint32_t threadBranches(const char *const **Sites, uint32_t *More);

/// The tests phase \p Index runs only under (__phaseprobe_region_guards), at
/// most \p Cap into \p Tests; returns how many were stored.
uint32_t regionGuards(uint32_t Index, const char **Tests, uint32_t Cap);

/// The op mix of phase \p Index (__phaseprobe_op_mix) into \p Counts
/// (PHASEPROBE_OP_KINDS of them); false where its objects told none.
bool opMix(uint32_t Index, uint32_t *Counts);

/// A copy of \p S in the runtime's own memory (an object's strings go away
/// if it is unloaded before exit); null when none is left.
const char *copyString(const char *S);

/// Prints "phaseprobe: <message>" on stderr when PHASEPROBE_VERBOSE is set.
void verbose(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

/// Prints "phaseprobe: warning: <message>" on stderr, always.
void warning(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace __phaseprobe
