//===- StreamsTest.cpp - Unit tests of the stream analysis ----------------===//
//
// Feeds ThreadSampler the address sequences that instrumented loops would
// produce (bursts of a few iterations out of long executions, several
// threads, several invocations) and checks the streams analyzePhase derives
// against answers known analytically.
//
//===----------------------------------------------------------------------===//
#include "streams.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <vector>

using namespace __phaseprobe::streams;

namespace {

using AddrFn = std::function<std::uintptr_t(std::uint64_t)>;
struct SiteUse {
  const SiteDesc *Site;
  AddrFn Addr;
};

/// Runs one execution of a loop of \p Trip iterations the way the
/// instrumented code does: countdown, burst, plain remainder, end.
struct Loop {
  std::int64_t Countdown = 1;
  std::uint64_t Clock = 0;

  /// Returns true when the execution was sampled.
  bool run(ThreadSampler &S, PhaseContext C, const std::vector<SiteUse> &Uses,
           std::uint64_t Trip, double CleanNsPerIter = 1,
           double SampleNs = 10) {
    if (--Countdown > 0)
      return false;
    std::uint32_t B = S.beginBurst(C, &Countdown, &Countdown, Clock);
    if (!B)
      return false;
    if (B == ThreadSampler::Control) { // the plain loop, timed
      Clock += std::uint64_t(CleanNsPerIter * double(Trip));
      S.endExecution(Trip, &Countdown, Clock);
      return false;
    }
    std::uint64_t Burst = std::min<std::uint64_t>(B, Trip);
    for (std::uint64_t I = 0; I < Burst; ++I) {
      for (const SiteUse &U : Uses)
        S.sample(U.Site, U.Addr(I));
      Clock += std::uint64_t(CleanNsPerIter + SampleNs * Uses.size());
    }
    if (Trip > B) {
      S.stopBurst(Clock);
      Clock += std::uint64_t(CleanNsPerIter * double(Trip - B));
    }
    S.endExecution(Trip, &Countdown, Clock);
    return true;
  }
};

struct Team {
  std::vector<std::unique_ptr<ThreadSampler>> Threads;
  std::vector<Loop> Loops;
  explicit Team(unsigned N, Config C = Config()) {
    for (unsigned I = 0; I < N; ++I) {
      Threads.emplace_back(new ThreadSampler(C));
      Loops.emplace_back();
    }
  }
  Vec<StreamResult> analyze(std::uint32_t Phase, double L1d = 32,
                            bool SplitsIterations = false) {
    std::vector<const ThreadSampler *> P;
    for (auto &T : Threads)
      P.push_back(T.get());
    return analyzePhase(Phase, P.data(), P.size(), L1d, 1ull << 36, 0, SplitsIterations);
  }
};

const std::uintptr_t Base = 0x10000000;
SiteDesc LoadD{8, 0, "t.c:10:5"};
SiteDesc LoadD2{8, 0, "t.c:10:12"};
SiteDesc StoreD{8, SiteStore, "t.c:10:3"};
SiteDesc LoadF{4, 0, "t.c:11:5"};
SiteDesc LoadI{4, 0, "t.c:12:5"};
SiteDesc Scalar{8, 0, "t.c:13:5"};

double kib(double Bytes) { return Bytes / 1024.0; }

} // namespace

TEST(StreamsConfig, DefaultsAndKnobs) {
  unsetenv("PHASEPROBE_SAMPLING");
  unsetenv("PHASEPROBE_SAMPLE_PERIOD");
  unsetenv("PHASEPROBE_SAMPLE_BURST");
  char W[256];
  Config C = Config::fromEnvironment(W, sizeof W);
  EXPECT_TRUE(C.Enabled);
  EXPECT_EQ(C.Period, 1000u);
  EXPECT_EQ(C.Burst, 128u);
  EXPECT_EQ(C.Invocations, 16u);
  EXPECT_STREQ(W, "");

  setenv("PHASEPROBE_SAMPLING", "OFF", 1);
  setenv("PHASEPROBE_SAMPLE_PERIOD", "250", 1);
  setenv("PHASEPROBE_SAMPLE_BURST", "64", 1);
  setenv("PHASEPROBE_SAMPLE_INVOCATIONS", "4", 1);
  C = Config::fromEnvironment(W, sizeof W);
  EXPECT_FALSE(C.Enabled);
  EXPECT_EQ(C.Period, 250u);
  EXPECT_EQ(C.Burst, 64u);
  EXPECT_EQ(C.Invocations, 4u);
  EXPECT_STREQ(W, "");

  setenv("PHASEPROBE_SAMPLE_INVOCATIONS", "0", 1);
  C = Config::fromEnvironment(W, sizeof W);
  EXPECT_EQ(C.Invocations, 16u);
  EXPECT_STREQ(W, "PHASEPROBE_SAMPLE_INVOCATIONS='0' is not an integer in [1, "
                  "2^40]; using 16");
  unsetenv("PHASEPROBE_SAMPLE_INVOCATIONS");

  setenv("PHASEPROBE_SAMPLING", "maybe", 1);
  setenv("PHASEPROBE_SAMPLE_PERIOD", "-3", 1);
  C = Config::fromEnvironment(W, sizeof W);
  EXPECT_TRUE(C.Enabled);
  EXPECT_EQ(C.Period, 1000u);
  EXPECT_STREQ(W, "PHASEPROBE_SAMPLING='maybe' is not on or off; sampling "
                  "stays on");
  setenv("PHASEPROBE_SAMPLING", "on", 1);
  setenv("PHASEPROBE_SAMPLE_BURST", "12x", 1);
  C = Config::fromEnvironment(W, sizeof W);
  EXPECT_EQ(C.Burst, 128u);
  EXPECT_STREQ(W, "PHASEPROBE_SAMPLE_PERIOD='-3' is not an integer in [1, "
                  "2^40]; using 1000");
  unsetenv("PHASEPROBE_SAMPLING");
  unsetenv("PHASEPROBE_SAMPLE_PERIOD");
  unsetenv("PHASEPROBE_SAMPLE_BURST");
}

TEST(StreamsSampler, SampledInvocationsStandForTheSkippedOnes) {
  ThreadSampler S{Config()};
  std::int64_t Root = 0, Other = 0;
  Loop L;
  auto Short = [&] { // a short loop, run whole in its clone, then the control
    L.Countdown = 1;
    L.run(S, {0, 0}, {{&LoadD, [](auto I) { return Base + 8 * I; }}}, 10);
    L.run(S, {0, 0}, {{&LoadD, [](auto I) { return Base + 8 * I; }}}, 10);
    return L.Countdown;
  };
  // A root's first four invocations are all sampled, their loops aiming at
  // Period, as in a program whose region runs a few times.
  for (int K = 1; K <= 4; ++K) {
    ASSERT_TRUE(S.beginInvocation(&Root, &Root));
    EXPECT_EQ(Root, 1);
    EXPECT_EQ(Short(), 999);
  }
  // The fifth stands for two (itself and the one skipped after it).
  ASSERT_TRUE(S.beginInvocation(&Root, &Root));
  EXPECT_EQ(Root, 2);
  EXPECT_EQ(Short(), 499);
  for (int K = 6; K <= 30; ++K)
    ASSERT_TRUE(S.beginInvocation(&Root, &Root));
  EXPECT_EQ(Root, 16); // from the 16th on: one in Invocations
  EXPECT_EQ(Short(), 61); // 1000 / 16
  // Another root starts over.
  ASSERT_TRUE(S.beginInvocation(&Other, &Other));
  EXPECT_EQ(Other, 1);
  EXPECT_EQ(Short(), 999);

  Config Off;
  Off.Enabled = false;
  ThreadSampler T(Off);
  std::int64_t Cd = 0;
  EXPECT_FALSE(T.beginInvocation(&Cd, &Cd));
  EXPECT_EQ(Cd, INT64_MAX);
}

TEST(StreamsSampler, CountdownIsOnlyAnIdentity) {
  // The plugin hands over its countdown's address as the root's or loop's
  // identity and a slot of its own for the answer, so that the optimizer
  // can be told the call writes no memory of the program: the identity is
  // never written, and the schedule follows it, not the slot.
  ThreadSampler S{Config()};
  const std::int64_t Root = 7, Loop = 5;
  std::int64_t Next = 0;
  for (int K = 1; K <= 5; ++K)
    ASSERT_TRUE(S.beginInvocation(&Root, &Next));
  EXPECT_EQ(Next, 2); // the fifth invocation of this root stands for two
  EXPECT_EQ(Root, 7);
  std::int64_t Other = 0;
  ASSERT_TRUE(S.beginInvocation(&Root, &Other)); // another slot, same root
  EXPECT_EQ(Other, 3);
  EXPECT_EQ(S.beginBurst({0, 0}, &Loop, &Next, 0), Config().Burst);
  EXPECT_EQ(Loop, 5);
  S.endExecution(1000000, &Next, 10);
  EXPECT_EQ(Loop, 5);
  EXPECT_GE(Next, 1);
}

TEST(StreamsSampler, OffNeverSamplesAgain) {
  Config C;
  C.Enabled = false;
  ThreadSampler S(C);
  std::int64_t Cd = 0;
  EXPECT_EQ(S.beginBurst({1, 0}, &Cd, &Cd, 0), 0u);
  EXPECT_EQ(Cd, INT64_MAX);
}

TEST(StreamsSampler, OutsidePhasesPostpones) {
  ThreadSampler S{Config()};
  std::int64_t Cd = 0;
  EXPECT_EQ(S.beginBurst({NoPhaseKey, 0}, &Cd, &Cd, 0), 0u);
  EXPECT_EQ(Cd, 1000);
  EXPECT_EQ(S.records(), nullptr);
}

TEST(StreamsSampler, CountdownFollowsTripCount) {
  ThreadSampler S{Config()};
  Loop L;
  // A huge loop is sampled at every execution...
  ASSERT_TRUE(L.run(S, {0, 0}, {{&LoadD, [](auto I) { return Base + 8 * I; }}},
                    10000000));
  EXPECT_EQ(L.Countdown, 1);
  // ...a short one once per Period executions (all its iterations sampled).
  // It ran whole in its clone, so the execution right after it is a control
  // (the plain loop, timed), which hands on the rest of the pause: the
  // sampled executions stay those of a loop without controls.
  ASSERT_TRUE(L.run(S, {0, 0}, {{&LoadD, [](auto I) { return Base + 8 * I; }}},
                    10));
  EXPECT_EQ(L.Countdown, 1);
  EXPECT_FALSE(L.run(S, {0, 0}, {{&LoadD, [](auto I) { return Base + 8 * I; }}}, 10));
  EXPECT_EQ(L.Countdown, 999);
  // In between, one instrumented iteration in Period.
  L.Countdown = 1;
  ASSERT_TRUE(L.run(S, {0, 0}, {{&LoadD, [](auto I) { return Base + 8 * I; }}},
                    12799));
  EXPECT_EQ(L.Countdown, 11); // ceil(129 * 1000 / 12800)
}

TEST(StreamsSampler, ControlExecutionsPriceLoopsThatRunWholeInTheClone) {
  // A 50-iteration loop runs whole in its clone, which (not vectorized, 2
  // samples an iteration) takes 30 ns an iteration where the plain loop
  // takes 2 ns. Its first burst can only be priced per sample (5 ns learnt
  // default: 500 ns); after a control execution, the overhead is the burst
  // minus the clean time of as many iterations: 1500 - 100 = 1400 ns.
  ThreadSampler S{Config()};
  std::int64_t Cd = 1;
  std::uint64_t Clock = 1000;
  auto Sampled = [&]() {
    EXPECT_EQ(S.beginBurst({0, 0}, &Cd, &Cd, Clock), 128u);
    for (int I = 0; I < 50; ++I) {
      S.sample(&LoadD, Base + 8 * I);
      S.sample(&StoreD, Base + 8 * I);
    }
    Clock += 50 * 30;
    return S.endExecution(50, &Cd, Clock);
  };
  EXPECT_EQ(Sampled(), 500u);
  EXPECT_EQ(Cd, 1); // the control comes next
  ASSERT_EQ(S.beginBurst({0, 0}, &Cd, &Cd, Clock), ThreadSampler::Control);
  EXPECT_TRUE(S.inBurst()); // between a control's begin and end
  Clock += 50 * 2;
  EXPECT_EQ(S.endExecution(50, &Cd, Clock), 0u); // a control costs nothing
  EXPECT_EQ(Cd, 999); // the rest of the sampled execution's pause of 1000
  EXPECT_EQ(Sampled(), 1400u);
  // Another loop has no control yet.
  std::int64_t Other = 1;
  EXPECT_EQ(S.beginBurst({0, 0}, &Other, &Other, Clock), 128u);
  S.endExecution(50, &Other, Clock + 100);
}

TEST(StreamsSampler, NestedBurstIsRefused) {
  ThreadSampler S{Config()};
  std::int64_t Outer = 1, Inner = 1;
  ASSERT_EQ(S.beginBurst({0, 0}, &Outer, &Outer, 0), 128u);
  EXPECT_EQ(S.beginBurst({0, 0}, &Inner, &Inner, 0), 0u);
  EXPECT_EQ(Inner, 1000);
  S.endExecution(5, &Outer, 10);
  EXPECT_FALSE(S.inBurst());
}

// A triad-like single loop per thread over its block of one array: the
// burst sees 128 of a million iterations; the footprint comes from the
// extrapolation and the union of the threads.
TEST(StreamsAnalysis, SingleHugeLoopPrivateBlocks) {
  const unsigned Th = 4;
  const std::uint64_t N = 4000000, Chunk = N / Th;
  Team T(Th);
  for (unsigned Inv = 0; Inv < 3; ++Inv)
    for (unsigned I = 0; I < Th; ++I)
      T.Loops[I].run(*T.Threads[I], {7, Inv},
                     {{&LoadD, [=](auto K) { return Base + 8 * (I * Chunk + K); }},
                      {&StoreD, [=](auto K) {
                         return Base + 0x8000000 + 8 * (I * Chunk + K);
                       }}},
                     Chunk);
  Vec<StreamResult> S = T.analyze(7);
  ASSERT_EQ(S.Size, 2u);
  for (const StreamResult &R : S) {
    EXPECT_NEAR(R.FootprintKiB, kib(N * 8), kib(N * 8) * 1e-6);
    EXPECT_EQ(R.StrideBytes, 8u);
    EXPECT_EQ(R.SecondStrideBytes, 0u);
    EXPECT_EQ(R.ElemBytes, 8u);
    EXPECT_FALSE(R.Shared);
    EXPECT_FALSE(R.Random);
    EXPECT_TRUE(R.Significant);
    EXPECT_EQ(R.Samples, 3u * Th * 128);
    ASSERT_EQ(R.NumSites, 1);
  }
  // Equal footprints: ordered by site.
  EXPECT_STREQ(S[0].op(), "store");
  EXPECT_STREQ(S[1].op(), "load");
  EXPECT_TRUE(T.analyze(8).empty()); // another phase saw nothing
}

TEST(StreamsAnalysis, SharedArrayReadByEveryThread) {
  const unsigned Th = 4;
  const std::uint64_t N = 100000;
  Team T(Th);
  for (unsigned I = 0; I < Th; ++I)
    T.Loops[I].run(*T.Threads[I], {1, 0},
                   {{&LoadF, [](auto K) { return Base + 4 * K; }}}, N);
  Vec<StreamResult> S = T.analyze(1);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_TRUE(S[0].Shared);
  EXPECT_EQ(S[0].ElemBytes, 4u);
  EXPECT_EQ(S[0].StrideBytes, 4u);
  EXPECT_NEAR(S[0].FootprintKiB, kib(4 * N), 1e-9);
}

TEST(StreamsAnalysis, StridesAreExact) {
  for (std::uint64_t Stride : {8u, 64u, 4096u}) {
    Team T(2);
    const std::uint64_t N = 50000;
    for (unsigned I = 0; I < 2; ++I)
      T.Loops[I].run(*T.Threads[I], {0, 0},
                     {{&LoadD, [=](auto K) {
                        return Base + Stride * (I * N + K);
                      }}},
                     N);
    Vec<StreamResult> S = T.analyze(0);
    ASSERT_EQ(S.Size, 1u);
    EXPECT_EQ(S[0].StrideBytes, Stride);
    EXPECT_NEAR(S[0].FootprintKiB, kib(Stride * (2 * N - 1) + 8), 1e-6);
    EXPECT_FALSE(S[0].Shared);
  }
}

// Matrix multiply c[i][j] += a[i][k] * b[k][j], rows of i split between
// threads: many short executions of the k loop, sampled now and then.
TEST(StreamsAnalysis, MatrixMultiplyColumnAndRowStreams) {
  const unsigned Th = 4, N = 256;
  Config C;
  C.Period = 50;
  Team T(Th, C);
  const std::uintptr_t A = Base, B = Base + 0x1000000, Cm = Base + 0x2000000;
  for (unsigned Th_ = 0; Th_ < Th; ++Th_)
    for (unsigned I = Th_ * N / Th; I < (Th_ + 1) * N / Th; ++I)
      for (unsigned J = 0; J < N; ++J)
        T.Loops[Th_].run(*T.Threads[Th_], {3, 0},
                         {{&LoadD, [=](auto K) { return A + 8 * (I * N + K); }},
                          {&LoadD2, [=](auto K) { return B + 8 * (K * N + J); }},
                          {&StoreD, [=](auto) { return Cm + 8 * (I * N + J); }}},
                         N);
  Vec<StreamResult> S = T.analyze(3);
  ASSERT_EQ(S.Size, 3u);
  auto Find = [&](const char *Site) -> const StreamResult & {
    for (const StreamResult &R : S)
      if (!std::strcmp(R.Sites[0], Site))
        return R;
    ADD_FAILURE() << "no stream at " << Site;
    return S[0];
  };
  double Full = kib(8.0 * N * N);
  // b: the column stream, shared, stride n*8, the whole matrix.
  const StreamResult &Col = Find("t.c:10:12");
  EXPECT_EQ(Col.StrideBytes, 8u * N);
  EXPECT_TRUE(Col.Shared);
  EXPECT_NEAR(Col.FootprintKiB, Full, Full * 0.03);
  // a: row-partitioned, private, stride 8.
  const StreamResult &Row = Find("t.c:10:5");
  EXPECT_EQ(Row.StrideBytes, 8u);
  EXPECT_FALSE(Row.Shared);
  EXPECT_STREQ(Row.op(), "load");
  EXPECT_NEAR(Row.FootprintKiB, Full, Full * 0.05);
  // c[i][j]: stays put within an execution, private rows.
  const StreamResult &Out = Find("t.c:10:3");
  EXPECT_EQ(Out.StrideBytes, 0u);
  EXPECT_FALSE(Out.Shared);
  EXPECT_STREQ(Out.op(), "store");
  EXPECT_NEAR(Out.FootprintKiB, Full, Full * 0.05);
}

// The same product on a team of one thread, three invocations: one thread
// shows no sharing, but a worksharing loop's halves are what two threads
// would walk: b reads as shared and a and c as private, as with four
// threads; a region that does not split its iterations (SplitsIterations
// false) keeps every stream private.
TEST(StreamsAnalysis, OneThreadWorksharingLoopHalvesTellSharedFromPrivate) {
  const unsigned N = 128;
  Config C;
  C.Period = 50;
  Team T(1, C);
  const std::uintptr_t A = Base, B = Base + 0x1000000, Cm = Base + 0x2000000;
  for (unsigned Inv = 0; Inv < 3; ++Inv)
    for (unsigned I = 0; I < N; ++I)
      for (unsigned J = 0; J < N; ++J)
        T.Loops[0].run(*T.Threads[0], {3, Inv},
                       {{&LoadD, [=](auto K) { return A + 8 * (I * N + K); }},
                        {&LoadD2, [=](auto K) { return B + 8 * (K * N + J); }},
                        {&StoreD, [=](auto) { return Cm + 8 * (I * N + J); }}},
                       N);
  for (bool Splits : {true, false}) {
    Vec<StreamResult> S = T.analyze(3, 32, Splits);
    ASSERT_EQ(S.Size, 3u);
    double Full = kib(8.0 * N * N);
    for (const StreamResult &R : S) {
      bool IsB = !std::strcmp(R.Sites[0], "t.c:10:12");
      EXPECT_EQ(R.Shared, Splits && IsB) << R.Sites[0] << (Splits ? " split" : " not split");
      EXPECT_NEAR(R.FootprintKiB, Full, Full * 0.05) << R.Sites[0];
    }
  }
  // One invocation, still running at the end (the buckets of the current
  // one, many times merged: 16384 executions, a few hundred sampled).
  Team One(1, C);
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J)
      One.Loops[0].run(*One.Threads[0], {3, 0},
                       {{&LoadD, [=](auto K) { return A + 8 * (I * N + K); }},
                        {&LoadD2, [=](auto K) { return B + 8 * (K * N + J); }}},
                       N);
  Vec<StreamResult> S = One.analyze(3, 32, true);
  ASSERT_EQ(S.Size, 2u);
  for (const StreamResult &R : S)
    EXPECT_EQ(R.Shared, !std::strcmp(R.Sites[0], "t.c:10:12")) << R.Sites[0];
  // A share that is one sampled execution (a loop that is the worksharing
  // loop itself) has no halves: no evidence, private.
  Team Flat(1, C);
  for (unsigned Inv = 0; Inv < 3; ++Inv)
    Flat.Loops[0].run(*Flat.Threads[0], {3, Inv},
                      {{&LoadD2, [=](auto K) { return B + 8 * (K % N); }}}, 100000);
  S = Flat.analyze(3, 32, true);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_FALSE(S[0].Shared);
}

TEST(StreamsAnalysis, RandomGatherKeepsIndexStride) {
  const std::uint64_t N = 1 << 20, M = 1 << 16;
  std::mt19937_64 Rng(42);
  std::vector<std::uint32_t> Idx(N);
  for (auto &V : Idx)
    V = std::uint32_t(Rng() % M);
  SiteDesc Gather{8, 0, "g.c:5:10"};
  Config C;
  C.Burst = 256;
  C.Period = 20;
  Team T(1, C);
  // Many executions of an inner loop of 1024 over idx[], each a burst.
  for (std::uint64_t E = 0; E < N / 1024; ++E)
    T.Loops[0].run(*T.Threads[0], {2, 0},
                   {{&LoadI, [&](auto K) { return Base + 4 * (E * 1024 + K); }},
                    {&Gather, [&](auto K) {
                       return Base + 0x4000000 + 8 * Idx[E * 1024 + K];
                     }}},
                   1024);
  Vec<StreamResult> S = T.analyze(2);
  ASSERT_EQ(S.Size, 2u);
  const StreamResult &Index = S[0].ElemBytes == 4 ? S[0] : S[1];
  const StreamResult &Data = S[0].ElemBytes == 4 ? S[1] : S[0];
  EXPECT_EQ(Index.StrideBytes, 4u);
  EXPECT_FALSE(Index.Random);
  EXPECT_NEAR(Index.FootprintKiB, kib(4.0 * N), kib(4.0 * N) * 0.02);
  EXPECT_TRUE(Data.Random);
  EXPECT_NEAR(Data.FootprintKiB, kib(8.0 * M), kib(8.0 * M) * 0.02);
  // Mean jump between uniform random picks is a third of the range.
  EXPECT_NEAR(double(Data.StrideBytes), 8.0 * M / 3, 8.0 * M / 3 * 0.05);
}

TEST(StreamsAnalysis, LoadAndStoreOfOneArrayMerge) {
  Team T(2);
  const std::uint64_t N = 100000;
  for (unsigned I = 0; I < 2; ++I)
    T.Loops[I].run(*T.Threads[I], {0, 0},
                   {{&LoadD, [=](auto K) { return Base + 8 * (I * N + K); }},
                    {&LoadD2, [=](auto K) { return Base + 8 * (I * N + K + 1); }},
                    {&StoreD, [=](auto K) { return Base + 8 * (I * N + K); }}},
                   N);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_STREQ(S[0].op(), "load+store");
  ASSERT_EQ(S[0].NumSites, 3);
  EXPECT_STREQ(S[0].Sites[0], "t.c:10:12");
  EXPECT_STREQ(S[0].Sites[1], "t.c:10:3");
  EXPECT_STREQ(S[0].Sites[2], "t.c:10:5");
  EXPECT_NEAR(S[0].FootprintKiB, kib(8.0 * (2 * N + 1)), 1e-6);
}

TEST(StreamsAnalysis, ScalarsAreNotStreams) {
  Team T(1);
  T.Loops[0].run(*T.Threads[0], {0, 0},
                 {{&Scalar, [](auto) { return Base; }},
                  {&LoadD, [](auto K) { return Base + 64 + 8 * K; }}},
                 1000);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_STREQ(S[0].Sites[0], "t.c:10:5");
}

TEST(StreamsAnalysis, SmallStreamsAreNotSignificant) {
  Team T(1);
  T.Loops[0].run(*T.Threads[0], {0, 0},
                 {{&LoadD, [](auto K) { return Base + 8 * K; }}}, 1000);
  Vec<StreamResult> S = T.analyze(0, 32);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_NEAR(S[0].FootprintKiB, 8000 / 1024.0, 1e-9);
  EXPECT_FALSE(S[0].Significant);
  EXPECT_TRUE(T.analyze(0, 4)[0].Significant);
}

// A tiled walk: 8 elements at stride 8, then a jump of one row.
TEST(StreamsAnalysis, SecondStrideIsReported) {
  Team T(1);
  T.Loops[0].run(*T.Threads[0], {0, 0},
                 {{&LoadD, [](auto K) {
                   return Base + 8 * (K % 8) + 4096 * (K / 8);
                 }}},
                 64);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_EQ(S[0].StrideBytes, 8u);
  EXPECT_EQ(S[0].SecondStrideBytes, 4096u - 56);
  EXPECT_NEAR(S[0].DominantShare, 56.0 / 63, 1e-9);
}

// Footprint is per invocation: three invocations over the same array give
// the array, not three times it; a larger invocation wins.
TEST(StreamsAnalysis, FootprintIsTheLargestInvocation) {
  Team T(1);
  for (unsigned Inv = 0; Inv < 3; ++Inv, T.Loops[0].Countdown = 1)
    T.Loops[0].run(*T.Threads[0], {0, Inv},
                   {{&LoadD, [](auto K) { return Base + 8 * K; }}},
                   Inv == 1 ? 20000 : 10000);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_NEAR(S[0].FootprintKiB, kib(8.0 * 20000), 1e-9);
}

TEST(StreamsAnalysis, OverheadIsBurstMinusCleanTime) {
  Team T(1);
  // Clean 2 ns/iteration, each sample 10 ns: the burst of 128 iterations with
  // one site costs 128 * 12 ns, of which 128 * 10 ns is overhead.
  T.Loops[0].run(*T.Threads[0], {5, 0},
                 {{&LoadD, [](auto K) { return Base + 8 * K; }}}, 100000, 2, 10);
  std::vector<const ThreadSampler *> P{T.Threads[0].get()};
  BurstCost C = totalCost(5, P.data(), 1);
  EXPECT_EQ(C.Bursts, 1u);
  EXPECT_EQ(C.Iterations, 128u);
  EXPECT_EQ(C.Samples, 128u);
  EXPECT_NEAR(C.Seconds, 128 * 12e-9, 1e-12);
  EXPECT_NEAR(C.OverheadSeconds, 128 * 10e-9, 1e-12);
}

// Short row loops inside a worksharing loop: each invocation samples only a
// few rows per thread, but the invocations revisit the same matrix, so the
// footprint converges over invocations...
TEST(StreamsAnalysis, RevisitedMemoryPoolsAcrossInvocations) {
  const unsigned Th = 2, Rows = 512, Cols = 512;
  Team T(Th);
  for (unsigned Inv = 0; Inv < 200; ++Inv)
    for (unsigned Th_ = 0; Th_ < Th; ++Th_)
      for (unsigned R = Th_ * Rows / Th; R < (Th_ + 1) * Rows / Th; ++R)
        T.Loops[Th_].run(*T.Threads[Th_], {0, Inv},
                         {{&LoadD, [=](auto K) { return Base + 8 * (R * Cols + K); }}},
                         Cols);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  double Full = kib(8.0 * Rows * Cols);
  EXPECT_NEAR(S[0].FootprintKiB, Full, Full * 0.03);
  EXPECT_FALSE(S[0].Shared);
}

// ...while invocations over disjoint buffers (swapped each time step) count
// one buffer, not both.
TEST(StreamsAnalysis, DisjointInvocationsStayApart) {
  Team T(1);
  for (unsigned Inv = 0; Inv < 4; ++Inv, T.Loops[0].Countdown = 1)
    T.Loops[0].run(*T.Threads[0], {0, Inv},
                   {{&LoadD, [=](auto K) {
                     return Base + (Inv % 2) * 0x1000000 + 8 * K;
                   }}},
                   10000);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_NEAR(S[0].FootprintKiB, kib(8.0 * 10000), 1e-9);
}

// A helper called on two arrays that lie terabytes apart (heap and mmap) in
// every invocation: two allocations, so the footprint is the sum of the two
// arrays, not the distance between them.
TEST(StreamsAnalysis, FarApartAllocationsAreSummed) {
  Config C;
  C.FarGapBytes = 1ull << 30;
  Team T(2, C);
  const std::uintptr_t Far = Base + (1ull << 42);
  for (unsigned Inv = 0; Inv < 3; ++Inv)
    for (unsigned I = 0; I < 2; ++I)
      for (std::uintptr_t Arr : {Base, Far}) {
        T.Loops[I].Countdown = 1;
        T.Loops[I].run(*T.Threads[I], {0, Inv},
                       {{&LoadD, [=](auto K) { return Arr + 8 * (I * 50000 + K); }}},
                       50000);
      }
  std::vector<const ThreadSampler *> P{T.Threads[0].get(), T.Threads[1].get()};
  Vec<StreamResult> S = analyzePhase(0, P.data(), P.size(), 32, C.FarGapBytes);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_NEAR(S[0].FootprintKiB, 2 * kib(8.0 * 100000), 1e-6);
  EXPECT_FALSE(S[0].Shared);
  EXPECT_EQ(S[0].StrideBytes, 8u);
}

// HPCCG's waxpby, w[i] = x[i] + beta * y[i], called on other vectors each
// time (r, p, p; x, p, x; r, Ap, r) that lie on both sides of the matrix.
// Each call touches two vectors, each site one: no stream spans the matrix
// between them (one of 571 MB for three 12 MiB vectors when merged sites
// bridged gaps as one site's sampled pieces are bridged), and sites merge
// by what they walk call by call, not over the whole run (where all three
// span the same vectors).
TEST(StreamsAnalysis, MergedSitesBoundToOtherArraysEachCallAreNotBridged) {
  Team T(2);
  const std::uint64_t N = 1 << 20, MiB = 1 << 20;
  const std::uintptr_t X = Base, R = Base + 16 * MiB, P = Base + 600 * MiB,
                       Ap = Base + 616 * MiB;
  const std::uintptr_t Calls[3][3] = {{R, P, P}, {X, P, X}, {R, Ap, R}};
  for (unsigned Inv = 0; Inv < 6; ++Inv)
    for (unsigned I = 0; I < 2; ++I) {
      const std::uintptr_t *C = Calls[Inv % 3];
      T.Loops[I].Countdown = 1;
      T.Loops[I].run(*T.Threads[I], {0, Inv},
                     {{&LoadD, [=](auto K) { return C[0] + 8 * (I * N / 2 + K); }},
                      {&LoadD2, [=](auto K) { return C[1] + 8 * (I * N / 2 + K); }},
                      {&StoreD, [=](auto K) { return C[2] + 8 * (I * N / 2 + K); }}},
                     N / 2);
    }
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_GE(S.Size, 1u);
  int Sites = 0;
  for (const StreamResult &E : S) {
    Sites += E.NumSites;
    EXPECT_LE(E.FootprintKiB, kib(2 * 8.0 * N) + 1);
    EXPECT_FALSE(E.Shared);
    EXPECT_EQ(E.StrideBytes, 8u);
  }
  EXPECT_EQ(Sites, 3);
  // w[i] is x[i] in two calls of three: one stream, updated, of the two
  // vectors of the first call; y[i] meets w[i] in one call: a stream read.
  ASSERT_EQ(S.Size, 2u);
  EXPECT_NEAR(S[0].FootprintKiB, kib(2 * 8.0 * N), 1);
  EXPECT_TRUE(S[0].HasLoad && S[0].HasStore);
  EXPECT_EQ(S[0].NumSites, 2);
  EXPECT_NEAR(S[1].FootprintKiB, kib(8.0 * N), 1);
  EXPECT_TRUE(S[1].HasLoad && !S[1].HasStore);
}

// NPB BT's back substitution: each invocation updates plane i from plane
// i + 1 (rhs[i] and rhs[i+1], two sites), the sweep going down the array.
// Sampled on one thread, each plane's piece leaves a gap to the next plane's
// narrower than the two pieces: one array, and the sweep's invocations
// together walk all of it.
TEST(StreamsAnalysis, MergedSitesOnNeighbourPlanesAreOneArray) {
  Team T(1);
  const std::uint64_t Planes = 24, Plane = 1000, Piece = 440;
  for (unsigned Inv = 0; Inv + 1 < Planes; ++Inv) {
    const std::uint64_t I = Planes - 2 - Inv;
    T.Loops[0].Countdown = 1;
    T.Loops[0].run(*T.Threads[0], {0, Inv},
                   {{&LoadD, [=](auto K) { return Base + 8 * (I * Plane + K); }},
                    {&LoadD2, [=](auto K) { return Base + 8 * ((I + 1) * Plane + K); }}},
                   Piece);
  }
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_EQ(S[0].NumSites, 2);
  EXPECT_NEAR(S[0].FootprintKiB, kib(8.0 * ((Planes - 1) * Plane + Piece)), 1);
}

// A per-iteration array on each thread's stack (XSBench's lookup vectors):
// the main thread's stack and a worker's lie gigabytes apart, closer than
// the physical memory that bounds one allocation. Two tiny arrays, not the
// gap between them (the runtime reported 14 GB).
TEST(StreamsAnalysis, ThreadStacksFarApartAreNotOneArray) {
  Config C;
  C.FarGapBytes = 1ull << 35;
  Team T(2, C);
  const std::uintptr_t Stack[2] = {Base + (10ull << 30), Base};
  for (unsigned Inv = 0; Inv < 3; ++Inv)
    for (unsigned I = 0; I < 2; ++I)
      for (unsigned Rep = 0; Rep < 50; ++Rep) {
        T.Loops[I].Countdown = 1;
        T.Loops[I].run(*T.Threads[I], {0, Inv},
                       {{&LoadD, [=](auto K) { return Stack[I] + 8 * K; }}}, 10);
      }
  std::vector<const ThreadSampler *> P{T.Threads[0].get(), T.Threads[1].get()};
  Vec<StreamResult> S = analyzePhase(0, P.data(), P.size(), 32, C.FarGapBytes);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_NEAR(S[0].FootprintKiB, kib(2 * 80), 1e-9);
  EXPECT_FALSE(S[0].Shared);
  EXPECT_FALSE(S[0].Significant);
}

// A walk that wraps inside its buffer (uB column walks: index * stride
// modulo the buffer) looks like one stride during a burst; extrapolated over
// the trip count it would leave the buffer. An unmapped extrapolated end is
// cut back to the furthest mapped element.
TEST(StreamsAnalysis, ExtrapolationStopsAtUnmappedMemory) {
  Config C;
  static const std::uintptr_t Buf = Base, Size = 4 << 20;
  C.IsMapped = [](std::uintptr_t A) { return A >= Buf && A < Buf + Size; };
  Team T(1, C);
  const std::uint64_t Stride = 32000, Trip = 1000000;
  T.Loops[0].run(*T.Threads[0], {0, 0},
                 {{&LoadD, [=](auto K) { return Buf + (K * Stride) % Size; }}},
                 Trip);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_EQ(S[0].StrideBytes, Stride);
  // The furthest mapped element of the straight walk is within one stride
  // of the buffer's end.
  EXPECT_LE(S[0].FootprintKiB, kib(double(Size)));
  EXPECT_GE(S[0].FootprintKiB, kib(double(Size - Stride)));
}

// lud's block update: a short loop reads and writes the matrix (one touch
// per iteration: the load and the store of one element), a long loop reads
// another array, and a loop with nothing to sample (arithmetic on stack
// arrays) runs as many iterations as the short one, which only the phase's
// count of its iterations in sampling copies knows. Accesses per iteration
// are over all of them, each loop's samples weighted by the executions its
// bursts stand for (the short loop is sampled once in 1000 executions, the
// long one once in 26).
TEST(StreamsAnalysis, AccessesPerIterationCountEveryLoopOfThePhase) {
  Team T(1);
  Loop Short, Long;
  const std::uintptr_t Other = Base + (1ull << 30);
  for (std::uint64_t Exec = 0; Exec < 20000; ++Exec)
    Short.run(*T.Threads[0], {0, 0},
              {{&LoadD, [=](auto K) { return Base + 8 * (Exec * 16 + K); }},
               {&StoreD, [=](auto K) { return Base + 8 * (Exec * 16 + K); }}},
              16);
  for (std::uint64_t E = 0; E < 200; ++E)
    Long.run(*T.Threads[0], {0, 0},
             {{&LoadF, [=](auto K) { return Other + 4 * (E * 5000 + K); }}}, 5000);
  const double Iterations = 20000.0 * 16 + 200.0 * 5000 + 20000.0 * 16;
  std::vector<const ThreadSampler *> P{T.Threads[0].get()};
  Vec<StreamResult> S = analyzePhase(0, P.data(), P.size(), 32, 1ull << 36, Iterations);
  ASSERT_EQ(S.Size, 2u);
  const StreamResult &Matrix = S[0].ElemBytes == 8 ? S[0] : S[1];
  const StreamResult &Array = S[0].ElemBytes == 8 ? S[1] : S[0];
  EXPECT_TRUE(Matrix.HasLoad && Matrix.HasStore);
  EXPECT_NEAR(Matrix.AccessesPerIter, 320000.0 / Iterations, 1e-9);
  // 8 bursts of the long loop stand for 208 executions of the 200 it ran.
  EXPECT_NEAR(Array.AccessesPerIter, 1e6 / Iterations, 0.05 * 1e6 / Iterations);
  // Without the phase's count, the sampled loops' own iterations.
  S = T.analyze(0);
  EXPECT_NEAR(S[0].ElemBytes == 8 ? S[0].AccessesPerIter : S[1].AccessesPerIter,
              320000.0 / (320000 + 208.0 * 5000), 1e-9);
}

// A loop run twice per thread with a pause of 63 executions: its one burst
// stands for far more iterations than ran, and its samples for as many more
// accesses: against those iterations, not the phase's 4096, the two cancel.
TEST(StreamsAnalysis, AccessesPerIterationOfALoopCutShortByTheRun) {
  Team T(1);
  Loop L;
  for (std::uint64_t E = 0; E < 2; ++E)
    L.run(*T.Threads[0], {0, E},
          {{&LoadD, [=](auto K) { return Base + 8 * (E * 2048 + K); }},
           {&LoadD2, [=](auto K) { return Base + 8 * (E * 2048 + K) + 16384 * 8; }}},
          2048);
  std::vector<const ThreadSampler *> P{T.Threads[0].get()};
  Vec<StreamResult> S = analyzePhase(0, P.data(), P.size(), 32, 1ull << 36, 2 * 2048);
  ASSERT_EQ(S.Size, 2u);
  EXPECT_NEAR(S[0].AccessesPerIter, 1.0, 1e-9);
  EXPECT_NEAR(S[1].AccessesPerIter, 1.0, 1e-9);
}

// A matrix product's row of A is walked again by every execution of the
// inner loop of one row (one per column of B): a window of N accesses, N
// executions in a row. Sampled executions 129 apart (period 1000, bursts of
// 128, trip 1000) start where the previous one did 87% of the time, which
// gives the N walks back; the column of B moves every execution: no reuse.
TEST(StreamsAnalysis, WindowWalkedAgainByConsecutiveExecutions) {
  const std::uint64_t N = 1000;
  Team T(1);
  const std::uintptr_t A = Base, B = Base + (1ull << 28);
  for (std::uint64_t I = 0; I < 40; ++I)
    for (std::uint64_t J = 0; J < N; ++J)
      T.Loops[0].run(*T.Threads[0], {0, 0},
                     {{&LoadD, [=](auto K) { return A + 8 * (I * N + K); }},
                      {&LoadD2, [=](auto K) { return B + 8 * (K * N + J); }}},
                     N);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 2u);
  const StreamResult &Row = !std::strcmp(S[0].Sites[0], "t.c:10:5") ? S[0] : S[1];
  const StreamResult &Col = !std::strcmp(S[0].Sites[0], "t.c:10:5") ? S[1] : S[0];
  EXPECT_NEAR(Row.WindowAccesses, double(N), 1e-9);
  EXPECT_NEAR(Row.WindowRepeats, double(N), 0.2 * N);
  EXPECT_EQ(Col.WindowRepeats, 0.0);
  EXPECT_NEAR(Col.WindowAccesses, double(N), 1e-9);
}

// Executions that start at random places (RSBench's lookups: 9 poles of
// 72 B from a random window of a 5 MiB table) jump; those that walk on
// (the next row; the next column of a plane, bt's y sweep) or walk one
// window again (a matrix product's row) do not.
TEST(StreamsAnalysis, JumpShareTellsRandomExecutionStartsFromInOrderWalks) {
  const std::uint64_t Poles = 5 * 1024 * 1024 / 72;
  Team T(1);
  std::mt19937_64 Rng(7);
  for (std::uint64_t E = 0; E < 200000; ++E) {
    std::uint64_t Start = Rng() % (Poles - 9);
    T.Loops[0].run(*T.Threads[0], {0, 0},
                   {{&LoadD, [=](auto K) { return Base + 72 * (Start + K); }}}, 9);
  }
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_FALSE(S[0].Random);
  EXPECT_GT(S[0].JumpShare, 0.9);

  // Rows of 256 in order; columns of 64 accesses 2560 B apart, plane by
  // plane (each plane 320 columns); one row of A for 1000 columns of B.
  Team U(1);
  Loop Rows, Columns, Window, InTurn;
  for (std::uint64_t E = 0; E < 100000; ++E)
    Rows.run(*U.Threads[0], {0, 0},
                   {{&LoadD, [=](auto K) { return Base + 8 * (E * 256 + K); }}}, 256);
  for (std::uint64_t E = 0; E < 100000; ++E)
    Columns.run(*U.Threads[0], {1, 0},
                   {{&LoadD, [=](auto K) {
                       std::uint64_t Plane = E / 320, Col = E % 320;
                       return Base + 8 * (Plane * 64 * 320 + Col + K * 320);
                     }}},
                   64);
  for (std::uint64_t E = 0; E < 100000; ++E)
    Window.run(*U.Threads[0], {2, 0},
                   {{&LoadD, [=](auto K) { return Base + 8 * ((E / 1000) * 1000 + K); }}},
                   1000);
  // Two arrays 1 GiB apart in turn, each row after row (one call site).
  for (std::uint64_t E = 0; E < 100000; ++E)
    InTurn.run(*U.Threads[0], {3, 0},
               {{&LoadD, [=](auto K) {
                   return Base + (E % 2) * (1ull << 30) + 8 * ((E / 2) * 256 + K);
                 }}},
               256);
  for (std::uint32_t Phase = 0; Phase < 4; ++Phase) {
    S = U.analyze(Phase);
    ASSERT_EQ(S.Size, 1u) << "phase " << Phase;
    EXPECT_GE(S[0].JumpShare, 0.0) << "phase " << Phase;
    EXPECT_LT(S[0].JumpShare, 0.1) << "phase " << Phase;
  }

  // A random stream (no stride) and too few pairs say nothing.
  Team V(1);
  V.Loops[0].run(*V.Threads[0], {0, 0},
                 {{&LoadD, [=](auto K) { return Base + 8 * K; }}}, 100);
  S = V.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_LT(S[0].JumpShare, 0.0);
}

// A walk continues where its pace puts it: rows 2 KiB an execution 64
// executions on, within a tenth, the extent and a page; backwards too.
TEST(StreamsAnalysis, ContinuesWalkWhereThePacePutsIt) {
  EXPECT_TRUE(continuesWalk(Base, Base + 64 * 2048, 64, 2048, 2048));
  EXPECT_TRUE(continuesWalk(Base, Base + 70 * 2048, 64, 2048, 2048));
  EXPECT_FALSE(continuesWalk(Base, Base + 90 * 2048, 64, 2048, 2048));
  EXPECT_TRUE(continuesWalk(Base + 64 * 2048, Base, 64, -2048, 2048));
  EXPECT_FALSE(continuesWalk(Base + 64 * 2048, Base, 64, 2048, 2048));
  EXPECT_TRUE(continuesWalk(Base, Base, 1000, 0, 8)) << "a window walked again";
  EXPECT_FALSE(continuesWalk(Base, Base + (1 << 20), 1000, 0, 584));
}

// Windows kept for fewer executions than the sampling's distance are not
// seen (no claim of reuse), nor are windows of different invocations one.
TEST(StreamsAnalysis, WindowsShorterThanThePauseOrAcrossInvocationsAreNoReuse) {
  Team T(1);
  for (std::uint64_t E = 0; E < 50000; ++E)
    T.Loops[0].run(*T.Threads[0], {0, 0},
                   {{&LoadD, [=](auto K) { return Base + 8 * ((E / 4) * 1000 + K); }}}, 1000);
  Vec<StreamResult> S = T.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_EQ(S[0].WindowRepeats, 0.0);
  Team U(1);
  for (std::uint64_t Inv = 0; Inv < 400; ++Inv) {
    U.Loops[0].Countdown = 1;
    U.Loops[0].run(*U.Threads[0], {0, Inv},
                   {{&LoadD, [=](auto K) { return Base + 8 * K; }}}, 1000);
  }
  S = U.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_EQ(S[0].WindowRepeats, 0.0) << "one execution per invocation: no pair";
  // Binary searches all start in the middle of their table: the same first
  // address, and nothing alike after it. A random stream has no window.
  Team V(1);
  for (std::uint64_t E = 0; E < 20000; ++E)
    V.Loops[0].run(*V.Threads[0], {0, 0},
                   {{&LoadD, [=](auto K) {
                       std::uint64_t H = ((E * 16 + K) * 0x9E3779B97F4A7C15ull) >> 48;
                       return Base + 8 * (K ? H : 32768);
                     }}},
                   16);
  S = V.analyze(0);
  ASSERT_EQ(S.Size, 1u);
  EXPECT_TRUE(S[0].Random);
  EXPECT_EQ(S[0].WindowRepeats, 0.0);
}
