//===- thread_state.h - Per-thread runtime state ----------------*- C++ -*-===//
//
// Internal to the runtime. Each OS thread that executes a probe owns one
// ThreadState, reached through an initial-exec TLS pointer and also linked
// into a global list: OpenMP worker threads are never joined and may never
// run TLS destructors, so the exit hook walks the list instead. Records are
// never freed. Only the owning thread writes its record; the exit hook reads
// all of them (word-sized counters, so a read racing a live thread sees an
// old or a new value, never a torn one on x86-64/AArch64).
//
// Other runtime units (stream sampling) use currentPhase() to attribute what
// they observe to the innermost construct the calling thread is executing,
// and may hang their own per-thread data on ThreadState::Extension.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clock.h"
#include "phaseprobe/interface.h"

#include <atomic>
#include <cstdint>
#include <sched.h>

namespace __phaseprobe {

/// Value of a phase index meaning "no phase".
constexpr uint32_t NoPhase = 0xffffffffu;

/// Per (thread, phase) accumulators. All times in nanoseconds.
struct PhaseSlot {
  uint64_t ShareNs = 0;    ///< this thread's shares (ws) / body times (region)
  uint64_t ShareIters = 0; ///< innermost-loop iterations in those shares
  uint64_t ShareItersInCopy = 0; ///< those of shares run in a sampling copy
  uint64_t ShareCount = 0; ///< number of shares
  uint64_t ForkNs = 0;     ///< region: fork-to-join seen by the forking thread
  uint64_t ForkCount = 0;  ///< region: forks done by this thread
  uint64_t ForkBarriers = 0; ///< region: barriers in those forks, joins included
  uint64_t ForkFaults = 0;   ///< region: minor page faults of the process in counted forks
  uint64_t FaultForks = 0;   ///< region: forks whose page faults were counted
  uint64_t ShareSpinRounds = 0; ///< spin-wait rounds in those shares
};

/// What an open frame on a thread's construct stack is.
enum class FrameKind : uint8_t {
  RegionFork,   ///< forking thread, between region_begin and region_end
  RegionThread, ///< a team member inside the outlined body
  Worksharing,  ///< a thread's share of a worksharing construct
};

struct Frame {
  uint32_t Phase;
  FrameKind Kind;
  uint32_t PrevRegion; ///< ThreadState::CurrentRegion before this frame
  uint32_t TeamSize;   ///< RegionThread: omp_get_num_threads() at entry
  uint64_t StartNs;
  uint64_t StartIters;
  uint64_t StartBarriers;
  uint64_t StartSpinWaits;
  uint64_t StartSpinEntries;
  uint64_t StartSpinRounds;
  uint64_t StartFaults; ///< RegionFork: the process's minor faults, or NoFaults
};

/// Frame::StartFaults of a fork whose page faults are not counted.
constexpr uint64_t NoFaults = ~uint64_t(0);

constexpr uint32_t MaxDepth = 64;

struct ThreadState {
  ThreadState *Next = nullptr; ///< global list, newest first
  uint32_t Ordinal = 0;        ///< order of creation, 0 = first thread seen
  PhaseSlot *Slots = nullptr;  ///< indexed by phase index, grown on demand
  uint32_t NumSlots = 0;
  Frame Stack[MaxDepth];
  uint32_t Depth = 0;
  uint32_t Overflow = 0;            ///< frames not pushed because the stack was full
  uint32_t CurrentRegion = NoPhase; ///< innermost region body we are in
  uint32_t CurrentTeam = 1;         ///< team size of that region
  void *Extension = nullptr;        ///< free for other runtime units
  bool Starter = false;             ///< the thread that started the runtime
  uint64_t RemovedNs = 0;           ///< sampling overhead taken out of its frames
  uint64_t SpinRounds = 0;          ///< worksharing shares that entered a spin loop
  /// The CPUs the thread may run on, read as a member of a team of
  /// CpusTeam threads (0: never read; ~0u: reading failed); read again only
  /// in a larger team, since the OpenMP runtime binds threads at forks.
  cpu_set_t Cpus;
  uint32_t CpusTeam = 0;
};

/// The calling thread's state, created on first use (never null).
ThreadState *threadState();

/// The calling thread's state if it has one, else null. Never allocates:
/// safe in signal handlers.
ThreadState *threadStateIfAny();

/// Head of the list of all thread states (newest first).
ThreadState *threadList();

/// Index of the innermost construct (phase) the calling thread is executing
/// now, or NoPhase when it is in serial code.
uint32_t currentPhase();

/// Number of constructs registered so far (phase indices are < this).
uint32_t phaseCount();

/// The registered construct with index \p Index (< phaseCount()).
const __phaseprobe_construct *construct(uint32_t Index);

} // namespace __phaseprobe
