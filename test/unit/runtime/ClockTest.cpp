//===- ClockTest.cpp - Unit tests of the probes' clock --------------------===//
//
// Whichever clock the runtime picks, it must give CLOCK_MONOTONIC's
// nanoseconds: a read before the clock started and one after are
// subtracted from each other, and phase times are compared with the
// program's wall time.
//
//===----------------------------------------------------------------------===//
#include "clock.h"

#include <cstdint>
#include <gtest/gtest.h>
#include <time.h>

using namespace __phaseprobe;

namespace {

// nowNs() minus CLOCK_MONOTONIC read around it, from the tightest of a few
// brackets (a preemption between the reads widens one); Width gets the
// bracket's width.
int64_t offsetFromMonotonic(uint64_t &Width) {
  int64_t Best = 0;
  Width = UINT64_MAX;
  for (int I = 0; I < 32; ++I) {
    uint64_t A = monotonicNs();
    uint64_t N = nowNs();
    uint64_t B = monotonicNs();
    if (B - A < Width) {
      Width = B - A;
      Best = static_cast<int64_t>(N) - static_cast<int64_t>(A + (B - A) / 2);
    }
  }
  return Best;
}

void sleepMs(long Ms) {
  struct timespec Ts = {0, Ms * 1000000L};
  nanosleep(&Ts, nullptr);
}

class ClockTest : public ::testing::Test {
protected:
  // The runtime started its clock at load; leave it as it found it.
  void TearDown() override { startClock(nullptr); }
};

TEST_F(ClockTest, MonotonicIsClockGettime) {
  EXPECT_EQ(startClock("monotonic"), ClockKind::Monotonic);
  EXPECT_STREQ(clockName(), "monotonic");
  uint64_t Width;
  int64_t Off = offsetFromMonotonic(Width);
  EXPECT_LE(Off < 0 ? -Off : Off, static_cast<int64_t>(Width / 2 + 1));
}

// The counter's conversion is anchored to CLOCK_MONOTONIC at start and its
// rate measured against it: 30 ms later the two still agree to within the
// bracket and a few microseconds (a rate off by 1e-4 would be 3 us).
TEST_F(ClockTest, EitherClockKeepsMonotonicTime) {
  ClockKind K = startClock(nullptr);
  EXPECT_STREQ(clockName(), K == ClockKind::Tsc ? "tsc" : "monotonic");
  uint64_t W0, W1;
  int64_t Off0 = offsetFromMonotonic(W0);
  sleepMs(30);
  int64_t Off1 = offsetFromMonotonic(W1);
  constexpr int64_t SlackNs = 5000;
  EXPECT_LE(Off0 < 0 ? -Off0 : Off0, static_cast<int64_t>(W0) + SlackNs) << clockName();
  int64_t Drift = Off1 - Off0;
  EXPECT_LE(Drift < 0 ? -Drift : Drift, static_cast<int64_t>(W0 + W1) + SlackNs) << clockName();
}

TEST_F(ClockTest, ReadsNeverGoBackOnOneThread) {
  for (const char *Choice : {"monotonic", "auto"}) {
    startClock(Choice);
    uint64_t Prev = nowNs();
    for (int I = 0; I < 200000; ++I) {
      uint64_t N = nowNs();
      ASSERT_GE(N, Prev) << clockName() << " read " << I;
      Prev = N;
    }
  }
}

} // namespace
