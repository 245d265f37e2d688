//===- clock.h - The probes' clock ----------------------------*- C++ -*-===//
//
// Internal to the runtime. Every share of every construct reads the clock
// twice, and on a loop of short invocations those reads are about half of
// what the probes cost (NPB SP W: __vdso_clock_gettime 3.9% of an
// instrumented run's samples; 18 ns a read on the project's VM against 8 ns
// for the time-stamp counter, bench/overhead/clock_cost.py). Where the kernel itself keeps time with the TSC
// (its clocksource is "tsc": it found the counter invariant and in step
// across CPUs) and reading it is the cheaper of the two, nowNs() reads the
// counter and converts with a rate measured against CLOCK_MONOTONIC at
// start; elsewhere, and with PHASEPROBE_CLOCK=monotonic, it calls
// clock_gettime. Both give CLOCK_MONOTONIC's nanoseconds (the counter's
// conversion is anchored to it), so a read taken before the clock started
// and one after differ by the elapsed time, not by an offset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace __phaseprobe {

enum class ClockKind { Monotonic, Tsc };

/// The counter's conversion: ns = NsBase + (tsc - TscBase) * Mult / 2^32.
struct TscConversion {
  uint64_t TscBase = 0;
  uint64_t NsBase = 0;
  uint64_t Mult = 0;
};

extern TscConversion TscClock;
/// Set (release) after TscClock is filled in; nowNs() reads the counter
/// only then.
extern std::atomic<bool> TscClockOn;

/// Chooses and starts the clock, once, before the probes run (the
/// runtime's start). \p Choice is PHASEPROBE_CLOCK's value: "monotonic"
/// keeps clock_gettime; null, "" or "auto" takes the counter where it can
/// (above), and so does any other value, after one warning line. Returns
/// what nowNs() reads from now on.
ClockKind startClock(const char *Choice);

/// "tsc" or "monotonic": what nowNs() reads.
const char *clockName();

inline uint64_t monotonicNs() {
  struct timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return static_cast<uint64_t>(Ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(Ts.tv_nsec);
}

/// Monotonic time in nanoseconds.
inline uint64_t nowNs() {
#if defined(__x86_64__)
  if (__builtin_expect(TscClockOn.load(std::memory_order_acquire), 1)) {
    // Signed: a thread on a CPU whose counter runs a few cycles behind the
    // calibrating one's must not wrap just after the start.
    __int128 D = static_cast<__int128>(static_cast<int64_t>(__rdtsc() - TscClock.TscBase));
    return TscClock.NsBase + static_cast<uint64_t>((D * TscClock.Mult) >> 32);
  }
#endif
  return monotonicNs();
}

} // namespace __phaseprobe
