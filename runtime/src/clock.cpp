//===- clock.cpp - The probes' clock: the TSC where the kernel trusts it ---===//
#include "clock.h"
#include "runtime.h"

#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace __phaseprobe {

TscConversion TscClock;
std::atomic<bool> TscClockOn{false};

namespace {

#if defined(__x86_64__)

// The kernel chose the counter for its own clock only after checking that it
// runs at a constant rate, through sleep states, in step on every CPU: the
// same conditions the probes need, checked better than a CPUID bit (which a
// hypervisor may hide or misreport).
bool kernelKeepsTimeWithTsc() {
  int Fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return false;
  char Buf[16] = {};
  ssize_t N = read(Fd, Buf, sizeof Buf - 1);
  close(Fd);
  return N >= 3 && strncmp(Buf, "tsc", 3) == 0 && (N == 3 || Buf[3] == '\n');
}

// Whether 256 reads of the counter take less time than 256 clock_gettime
// calls. A hypervisor may trap RDTSC (then a read costs microseconds): the
// counter is used only where it is the cheaper.
bool counterIsCheaper() {
  constexpr int Reads = 256;
  uint64_t Sink = 0;
  uint64_t A = monotonicNs();
  for (int I = 0; I < Reads; ++I)
    Sink += __rdtsc();
  uint64_t B = monotonicNs();
  for (int I = 0; I < Reads; ++I)
    Sink += monotonicNs();
  uint64_t C = monotonicNs();
  asm volatile("" : : "r"(Sink));
  return B - A < C - B;
}

struct Pair {
  uint64_t Ns, Tsc, Width;
};

// A (CLOCK_MONOTONIC, counter) pair: the counter read between two clock
// reads, the tightest bracket of a few tries (a preemption widens one).
Pair readPair() {
  Pair Best{0, 0, UINT64_MAX};
  for (int I = 0; I < 16; ++I) {
    uint64_t A = monotonicNs();
    uint64_t T = __rdtsc();
    uint64_t B = monotonicNs();
    if (B - A < Best.Width)
      Best = {A + (B - A) / 2, T, B - A};
  }
  return Best;
}

// The counter's rate against CLOCK_MONOTONIC over 2 ms: with brackets of
// about 40 ns, a rate within 2e-5 (a 100 s phase off by 2 ms at most),
// paid once at start.
bool calibrate(TscConversion &C) {
  constexpr uint64_t WindowNs = 2000000;
  Pair P0 = readPair();
  while (monotonicNs() - P0.Ns < WindowNs)
    ;
  Pair P1 = readPair();
  if (P1.Tsc <= P0.Tsc || P1.Ns <= P0.Ns)
    return false;
  uint64_t Ticks = P1.Tsc - P0.Tsc, Ns = P1.Ns - P0.Ns;
  // 100 MHz .. 20 GHz: anything else is not a time-stamp counter.
  if (Ticks < Ns / 10 || Ticks > Ns * 20)
    return false;
  C.TscBase = P1.Tsc;
  C.NsBase = P1.Ns;
  C.Mult = static_cast<uint64_t>((static_cast<unsigned __int128>(Ns) << 32) / Ticks);
  return true;
}

#endif

} // namespace

ClockKind startClock(const char *Choice) {
  TscClockOn.store(false, std::memory_order_release);
  if (Choice && strcmp(Choice, "monotonic") == 0)
    return ClockKind::Monotonic;
  if (Choice && *Choice && strcmp(Choice, "auto") != 0)
    warning("PHASEPROBE_CLOCK=%s: expected monotonic or auto; using auto", Choice);
#if defined(__x86_64__)
  TscConversion C;
  if (kernelKeepsTimeWithTsc() && counterIsCheaper() && calibrate(C)) {
    TscClock = C;
    TscClockOn.store(true, std::memory_order_release);
    return ClockKind::Tsc;
  }
#endif
  return ClockKind::Monotonic;
}

const char *clockName() { return TscClockOn.load(std::memory_order_acquire) ? "tsc" : "monotonic"; }

} // namespace __phaseprobe
