//===- UbenchTest.cpp - Catalogue, grids, params files, stats, runner -------===//
#include "phaseprobe/ubench.h"
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include <algorithm>
#include <cmath>
#include <set>
#include <unistd.h>

using namespace phaseprobe;

namespace {
template <typename F> std::string inputErrorOf(F &&Fn) {
  try {
    Fn();
  } catch (const InputError &E) {
    return E.what();
  }
  return "<no InputError>";
}
} // namespace

TEST(Catalog, KeepsTheMethodNamesAndCoversTheIssue) {
  for (const char *N : {"mbw1c", "mbw1p", "mbw2hc", "mbw2pc", "mbw2r"})
    EXPECT_TRUE(findUBench(N)) << N;
  std::set<std::string> Kernels, Types;
  std::set<unsigned> Streams;
  bool Shared = false, Private = false, Random = false;
  for (const UBenchDef &D : ubenchCatalog()) {
    Kernels.insert(D.kernel);
    Types.insert(D.type);
    Streams.insert(D.streams());
    Shared |= D.access.find('c') != std::string::npos;
    Private |= D.access.find('p') != std::string::npos;
    Random |= D.pattern.find('r') != std::string::npos;
    EXPECT_EQ(D.access.size(), D.pattern.size()) << D.name;
    EXPECT_EQ(std::count(D.ops.begin(), D.ops.end(), ';') + 1, long(D.streams())) << D.name;
  }
  EXPECT_EQ(Types, (std::set<std::string>{"double", "float", "int"}));
  EXPECT_EQ(Streams, (std::set<unsigned>{1, 2, 3}));
  for (const char *K : {"sum", "madd", "copy", "update", "store", "cadd", "cmul", "cfma", "cdiv",
                        "csqrt", "ctadd", "ctmul"})
    EXPECT_TRUE(Kernels.count(K)) << K;
  EXPECT_TRUE(Shared && Private && Random);
}

TEST(Grid, SpansL1ToBeyondLLCAndSmallToLargeStrides) {
  for (GridLevel L : {GridLevel::Quick, GridLevel::Default, GridLevel::Full}) {
    auto G = makeGrid(L, 32, 1024, 32768, 4, {});
    double MinK = 1e300, MaxK = 0, MinS = 1e300, MaxS = 0;
    std::set<std::string> Names;
    for (const UBenchConfig &C : G) {
      Names.insert(C.def->name);
      ASSERT_EQ(C.footprintKiB.size(), C.def->streams());
      for (std::size_t Q = 0; Q < C.footprintKiB.size(); ++Q) {
        if (C.def->compute())
          continue;
        MinK = std::min(MinK, C.footprintKiB[Q]);
        MaxK = std::max(MaxK, C.footprintKiB[Q]);
        if (C.def->pattern[Q] == 's') {
          MinS = std::min(MinS, C.strideBytes[Q]);
          MaxS = std::max(MaxS, C.strideBytes[Q]);
          double PerThread = C.footprintKiB[Q] * 1024 / (C.def->access[Q] == 'p' ? 4 : 1);
          EXPECT_GE(PerThread, 4 * C.strideBytes[Q]) << C.def->name << " " << C.requested();
          EXPECT_EQ(std::fmod(C.strideBytes[Q], C.def->elemBytes(Q)), 0);
        }
      }
    }
    EXPECT_LT(MinK, 32) << "inside L1";
    EXPECT_GE(MaxK, 2 * 32768) << "well beyond the LLC";
    EXPECT_EQ(MinS, 4);
    if (L != GridLevel::Quick) {
      EXPECT_GE(MaxS, 32768) << "tens of KB";
    }
    EXPECT_EQ(Names.size(), ubenchCatalog().size()) << "every uB in every grid";
  }
  auto Q = makeGrid(GridLevel::Quick, 32, 1024, 32768, 2, {});
  auto D = makeGrid(GridLevel::Default, 32, 1024, 32768, 2, {});
  auto F = makeGrid(GridLevel::Full, 32, 1024, 32768, 2, {});
  EXPECT_LT(Q.size(), D.size());
  EXPECT_LT(D.size(), F.size());
  // Without an L3 the L2 is the last level; the grid still goes beyond it.
  auto NoL3 = makeGrid(GridLevel::Quick, 48, 2048, 0, 1, {findUBench("mbw1c")});
  double Max = 0;
  for (auto &C : NoL3)
    Max = std::max(Max, C.footprintKiB[0]);
  EXPECT_GE(Max, 4096);
  EXPECT_EQ(NoL3.front().def->name, "mbw1c");
}

// Random streams come as uniform draws in every grid and, beyond the quick
// one, as searches (a walk with a mean jump) wherever the region holds the
// jump three times over.
TEST(Grid, RandomStreamsAlsoComeAsSearches) {
  for (GridLevel L : {GridLevel::Quick, GridLevel::Default, GridLevel::Full}) {
    auto G = makeGrid(L, 32, 1024, 32768, 4, {findUBench("mbw1cr"), findUBench("mbw1pr")});
    std::set<double> Jumps;
    for (const UBenchConfig &C : G) {
      double S = C.strideBytes[0];
      if (S == 8)
        continue;
      Jumps.insert(S);
      double Slice = C.footprintKiB[0] * 1024 / (C.def->access[0] == 'p' ? 4 : 1);
      EXPECT_LT(3 * S, Slice) << C.def->name << " " << C.requested();
    }
    if (L == GridLevel::Quick)
      EXPECT_TRUE(Jumps.empty());
    else
      EXPECT_TRUE(Jumps.count(16384)) << "XSBench's 21 KB searches";
  }
}

// bar1p and spin1p price barriers and spin-wait rounds against mbw1p at the
// same footprint: every grid has them at unit stride from inside L1 to
// beyond the LLC, each with its twin, and phase clones never use them
// (their tuples are mbw1p's).
TEST(Grid, SyncUBenchesComeWithTheirMbw1pTwins) {
  for (const char *Sync : {"bar1p", "spin1p"})
    for (GridLevel L : {GridLevel::Quick, GridLevel::Default, GridLevel::Full}) {
      auto G = makeGrid(L, 32, 1024, 32768, 2, {findUBench(Sync)});
      std::set<double> Bar, Twin;
      for (const UBenchConfig &C : G) {
        EXPECT_EQ(C.strideBytes[0], 8);
        (C.def->name == Sync ? Bar : Twin).insert(C.footprintKiB[0]);
      }
      EXPECT_EQ(Bar, Twin) << Sync;
      EXPECT_GE(Bar.size(), 5u);
      EXPECT_LE(*Bar.begin(), 32);
      EXPECT_GE(*Bar.rbegin(), 32768);
    }
  // With the whole catalogue, no mbw1p configuration is measured twice.
  auto All = makeGrid(GridLevel::Quick, 32, 1024, 32768, 2, {});
  std::set<std::string> Seen;
  for (const UBenchConfig &C : All)
    EXPECT_TRUE(Seen.insert(C.def->name + " " + C.requested()).second) << C.requested();
  EXPECT_TRUE(isSyncUBench("bar1p"));
  EXPECT_TRUE(isSyncUBench("spin1p"));
  EXPECT_TRUE(isSyncUBench("inv1p"));
  EXPECT_TRUE(isPricingUBench("inv1p"));
  EXPECT_FALSE(isSyncUBench("mbw1p"));
}

// inv1p prices a worksharing loop's invocation, a fixed cost that the short
// sweeps show best: its sweeps stop at the L2, each with its mbw1p twin.
TEST(Grid, InvocationUBenchSweepsUpToTheL2) {
  for (GridLevel L : {GridLevel::Quick, GridLevel::Default, GridLevel::Full}) {
    auto G = makeGrid(L, 32, 1024, 32768, 2, {findUBench(InvocationUBench)});
    std::set<double> Inv, Twin;
    for (const UBenchConfig &C : G) {
      EXPECT_EQ(C.strideBytes[0], 8);
      (C.def->name == InvocationUBench ? Inv : Twin).insert(C.footprintKiB[0]);
    }
    EXPECT_EQ(Inv, Twin);
    EXPECT_EQ(Inv, (std::set<double>{16, 64, 256, 1024}));
  }
  EXPECT_EQ(findUBench(InvocationUBench)->kernel, "sumw");
}

// pf1p prices page faults and gb1p their pages' give-backs: one
// configuration per grid, a store per page (the kernel refuses any other
// stride), 2 MiB of pages per thread at the most threads; like the sync uBs
// they are never matched nor cloned and take no padding.
TEST(Grid, PageFaultUBenchStoresOncePerPage) {
  const double Page = double(sysconf(_SC_PAGESIZE));
  for (const char *Name : {"pf1p", "gb1p"})
    for (GridLevel L : {GridLevel::Quick, GridLevel::Default, GridLevel::Full}) {
      auto G = makeGrid(L, 32, 1024, 32768, 2, {findUBench(Name)});
      ASSERT_EQ(G.size(), 1u) << Name;
      EXPECT_EQ(G[0].strideBytes[0], Page);
      EXPECT_EQ(G[0].footprintKiB[0], 4096);
    }
  EXPECT_TRUE(isFaultUBench("pf1p"));
  EXPECT_TRUE(isGiveBackUBench("gb1p"));
  EXPECT_FALSE(isFaultUBench("gb1p"));
  EXPECT_TRUE(isPricingUBench("pf1p"));
  EXPECT_TRUE(isPricingUBench("gb1p"));
  EXPECT_TRUE(isPricingUBench("bar1p"));
  EXPECT_FALSE(isSyncUBench("pf1p"));
  EXPECT_FALSE(isPricingUBench("st1p"));
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("pf1p+w2 4096:4096\n", "p.txt"); }),
            "p.txt: line 1: 'pf1p' takes no padding (+w): only memory uBs do");
}

// The hand-over pair: the same footprints for both, 4x apart from half the
// L2 to twice the LLC, at element stride; never a match nor padded.
TEST(Grid, HandOverPairSharesItsFootprints) {
  for (GridLevel L : {GridLevel::Quick, GridLevel::Full}) {
    auto Flip = makeGrid(L, 32, 1024, 32768, 2, {findUBench("ho1p")});
    auto Keep = makeGrid(L, 32, 1024, 32768, 2, {findUBench("hk1p")});
    ASSERT_EQ(Flip.size(), 4u);
    ASSERT_EQ(Keep.size(), Flip.size());
    for (std::size_t I = 0; I < Flip.size(); ++I) {
      EXPECT_EQ(Flip[I].footprintKiB[0], 512 * std::pow(4.0, double(I)));
      EXPECT_EQ(Keep[I].footprintKiB[0], Flip[I].footprintKiB[0]);
      EXPECT_EQ(Flip[I].strideBytes[0], 8);
    }
  }
  // Two 64 KiB blocks a thread at the least: 16 threads start at 2 MiB.
  EXPECT_EQ(makeGrid(GridLevel::Quick, 32, 1024, 32768, 16, {findUBench("ho1p")})[0].footprintKiB[0],
            2048);
  EXPECT_TRUE(isHandOverUBench("ho1p"));
  EXPECT_TRUE(isHandOverUBench("hk1p"));
  EXPECT_TRUE(isPricingUBench("ho1p"));
  EXPECT_TRUE(isPricingUBench("hk1p"));
  EXPECT_FALSE(isHandOverUBench("upd1c"));
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("ho1p+k2 4096:8\n", "p.txt"); }),
            "p.txt: line 1: 'ho1p' takes no reuse copies (+k): only memory uBs do");
}

TEST(Params, ParsesAndNamesTheLine) {
  auto V = parseParamsFile("# my configs\nmbw1c 15869:30000\n\nmbw2hc 15617:32000;3124:8 # c\n",
                           "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[1].requested(), "15617:32000;3124:8");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbwX 1:8\n", "p.txt"); }),
            "p.txt: line 1: unknown uB 'mbwX' (see phaseprobe-ubench list)");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("\nmbw2hc 64:8\n", "p.txt"); }),
            "p.txt: line 2: mbw2hc has 2 streams, not 1");
  EXPECT_NE(inputErrorOf([] {
              parseParamsFile("mbw1c 64:x\n", "p.txt");
            }).find("line 1, stream 1: stride_bytes 'x'"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] { parseParamsFile("mbw1c 64:12\n", "p.txt"); }).find("multiple of 8"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] { parseParamsFile("# nothing\n", "p.txt"); }).find("no configuration"),
            std::string::npos);
}

TEST(Params, AGathersIndexStreamHasItsOwnElementSize) {
  const UBenchDef *D = findUBench("spmv3");
  ASSERT_NE(D, nullptr);
  EXPECT_EQ(D->elemBytes(0), 8u);
  EXPECT_EQ(D->elemBytes(1), 4u) << "int indices";
  EXPECT_EQ(D->elemBytes(2), 8u);
  EXPECT_TRUE(D->gathered(2));
  EXPECT_FALSE(D->gathered(1));
  // The banded gather reads x through ascending indices: walked as declared
  // (its footprint and stride kept), not drawn over a region of any size.
  const UBenchDef *B = findUBench("spmv3p");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->elemBytes(1), 4u);
  EXPECT_FALSE(B->gathered(2));
  EXPECT_EQ(findUBench("mbw2hp")->elemBytes(1), 8u) << "the type's, without an override";
  EXPECT_EQ(parseParamsFile("spmv3 1024:8;512:4;109.375:8\n", "p.txt").size(), 1u);
  EXPECT_NE(inputErrorOf([] { parseParamsFile("spmv3 1024:8;512:6;64:8\n", "p.txt"); })
                .find("line 1, stream 2: stride must be a multiple of 4 B"),
            std::string::npos);
}

TEST(Params, PaddedConfigurationsAreUBsOfTheirOwn) {
  auto V = parseParamsFile("mbw2hc+w31 1024:64;256:8\nmbw1c 1024:8\n", "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].def->name, "mbw2hc");
  EXPECT_EQ(V[0].work, 31);
  EXPECT_EQ(V[0].name(), "mbw2hc+w31");
  EXPECT_EQ(paramsLine(V[0]), "mbw2hc+w31 1024:64;256:8");
  EXPECT_EQ(V[1].work, 0);
  EXPECT_EQ(V[1].name(), "mbw1c");
  for (const char *Bad : {"mbw1c+w0 64:8\n", "mbw1c+w 64:8\n", "mbw1c+w2x 64:8\n",
                          "mbw1c+w1000001 64:8\n"})
    EXPECT_NE(inputErrorOf([&] { parseParamsFile(Bad, "p.txt"); }).find("whole number from 1"),
              std::string::npos)
        << Bad;
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("bar1p+w2 64:8\n", "p.txt"); }),
            "p.txt: line 1: 'bar1p' takes no padding (+w): only memory uBs do");
}

TEST(Params, ReuseWindowsAreAThirdFieldOfTheirStreamsAndNameTheRepeats) {
  auto V = parseParamsFile("mbw2hpc+e2+r64+w5 7812.5:8:1000;7812.5:8000\n", "p.txt");
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].def->name, "mbw2hpc");
  EXPECT_EQ(V[0].every, 2);
  EXPECT_EQ(V[0].repeats, 64);
  EXPECT_EQ(V[0].work, 5);
  EXPECT_EQ(V[0].windowAccesses, (std::vector<double>{1000, 0}));
  EXPECT_EQ(V[0].strideBytes, (std::vector<double>{8, 8000}));
  EXPECT_EQ(paramsLine(V[0]), "mbw2hpc+e2+r64+w5 7812.5:8:1000;7812.5:8000");
  // Without +r: no windows, and the name and request say nothing of them.
  auto P = parseParamsFile("mbw1p 1024:8\n", "p.txt")[0];
  EXPECT_FALSE(P.hasWindows());
  EXPECT_EQ(paramsLine(P), "mbw1p 1024:8");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p 1024:8:100\n", "p.txt"); }),
            "p.txt: line 1, stream 1: '1024:8:100': a window (third field) needs +r<R> on the "
            "uB name");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+r8 1024:8\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+r8': +r without a window (K:S:W) on any stream");
  EXPECT_NE(inputErrorOf([] { parseParamsFile("mbw1p+r8 1024:8:2.5\n", "p.txt"); })
                .find("a whole number of accesses, on a strided stream"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] { parseParamsFile("mbw1pr+r8 1024:8:16\n", "p.txt"); })
                .find("a whole number of accesses, on a strided stream"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] { parseParamsFile("mbw1p+r4097 1024:8:16\n", "p.txt"); })
                .find("whole number from 1 to 4096"),
            std::string::npos);
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+w3+r2 64:8:4\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+w3+r2': the suffixes come in the order +e, +r, +c (or +j), +k, +w");
  EXPECT_NE(inputErrorOf([] { parseParamsFile("cfma+r2 4:8:4\n", "p.txt"); })
                .find("takes no reuse windows (+r)"),
            std::string::npos);
}

// NPB CG's sparse mat-vec takes 1.34 ns per iteration, its clone 0.83 ns,
// and one padding step after every iteration 2.2 ns: the padding spread
// over M iterations ("+wN/M") fills such gaps.
TEST(Params, PaddingSpreadOverIterations) {
  auto V = parseParamsFile("mbw1p+w1/2 14471.25:8\nmbw1p+e2+r4+w3/64 1024:8:16\n", "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].work, 1);
  EXPECT_EQ(V[0].workEvery, 2);
  EXPECT_EQ(paramsLine(V[0]), "mbw1p+w1/2 14471.25:8");
  EXPECT_EQ(V[1].workEvery, 64);
  EXPECT_EQ(V[1].name(), "mbw1p+e2+r4+w3/64");
  EXPECT_EQ(parseParamsFile("mbw1p+w3 64:8\n", "p.txt")[0].workEvery, 1);
  EXPECT_EQ(parseParamsFile("mbw1p+w3/1 64:8\n", "p.txt")[0].name(), "mbw1p+w3");
  for (const char *Bad : {"mbw1p+w1/0 64:8\n", "mbw1p+w1/65 64:8\n", "mbw1p+w1/ 64:8\n",
                          "mbw1p+w1/2x 64:8\n"})
    EXPECT_NE(inputErrorOf([&] { parseParamsFile(Bad, "p.txt"); })
                  .find("the iterations after / must be a whole number from 1 to 64"),
              std::string::npos)
        << Bad;
}

TEST(Params, IterationsPerKernelIterationComeBeforeThePadding) {
  auto V = parseParamsFile("mbw1p+e6+w13 1024:8\nmbw1p+e6 1024:8\n", "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].def->name, "mbw1p");
  EXPECT_EQ(V[0].every, 6);
  EXPECT_EQ(V[0].work, 13);
  EXPECT_EQ(paramsLine(V[0]), "mbw1p+e6+w13 1024:8");
  EXPECT_EQ(V[1].every, 6);
  EXPECT_EQ(V[1].work, 0);
  EXPECT_EQ(V[1].name(), "mbw1p+e6");
  EXPECT_EQ(parseParamsFile("mbw1p 1024:8\n", "p.txt")[0].every, 1);
  for (const char *Bad : {"mbw1p+e0 64:8\n", "mbw1p+e 64:8\n", "mbw1p+e4097 64:8\n",
                          "mbw1p+e2y+w3 64:8\n"})
    EXPECT_NE(inputErrorOf([&] { parseParamsFile(Bad, "p.txt"); }).find("whole number from 1"),
              std::string::npos)
        << Bad;
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+w3+e2 64:8\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+w3+e2': the suffixes come in the order +e, +r, +c (or +j), +k, +w");
  EXPECT_NE(inputErrorOf([] { parseParamsFile("cfma+e2 4:8\n", "p.txt"); })
                .find("takes no iterations per kernel iteration (+e)"),
            std::string::npos);
}

// The example bt's y sweep walks one 160 KiB plane of a 10 MiB stream at a
// time: its clone walks blocks of 64 accesses a column ("+c64"), every
// strided stream of a step above one element, and says so in its params.
TEST(Params, ColumnSpanNamesItsAccesses) {
  auto V = parseParamsFile("upd1p+c64+w13/7 10240:2560\nmbw2hp+e2+c63 1024:40;1024:8\n", "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].span, 64);
  EXPECT_EQ(V[0].work, 13);
  EXPECT_TRUE(V[0].spans(0));
  EXPECT_EQ(paramsLine(V[0]), "upd1p+c64+w13/7 10240:2560");
  EXPECT_EQ(V[1].name(), "mbw2hp+e2+c63");
  EXPECT_TRUE(V[1].spans(0));
  EXPECT_FALSE(V[1].spans(1)) << "a step of one element: one column, walked in order";
  EXPECT_EQ(parseParamsFile("upd1p 1024:8\n", "p.txt")[0].span, 0);
  EXPECT_FALSE(parseParamsFile("upd1p 1024:2560\n", "p.txt")[0].spans(0));
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+c3 1024:2560\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+c3': a column span (+c) holds at least 4 accesses");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+r2+c8 1024:2560:16\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+r2+c8': a column span (+c) and reuse windows (+r) do not "
            "combine");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+w2+c8 1024:2560\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+w2+c8': the suffixes come in the order +e, +r, +c (or +j), +k, +w");
  EXPECT_NE(inputErrorOf([] { parseParamsFile("cfma+c8 4:8\n", "p.txt"); })
                .find("takes no column span (+c)"),
            std::string::npos);
  // A gather over a random x takes its span as its rows' length (NPB CG's
  // SpMV clone); the banded one's rows have their own length.
  auto G = parseParamsFile("spmv3+c136+k2 14408:8;7204:4;109.375:8\n"
                           "spmv3 14408:8;7204:4;109.375:8\nspmv3p+c8 2048:8;1024:4;256:8\n",
                           "p.txt");
  ASSERT_EQ(G.size(), 3u);
  EXPECT_TRUE(G[0].rows());
  EXPECT_FALSE(G[0].spans(0)) << "its element-stride streams walk no columns";
  EXPECT_EQ(G[0].name(), "spmv3+c136+k2");
  EXPECT_FALSE(G[1].rows());
  EXPECT_FALSE(G[2].rows());
  EXPECT_FALSE(V[0].rows());
}

// Jumping runs: "+j<N>" in the place of "+c<N>", the same span, walked
// one column of a random block at a time (RSBench's windows of poles).
TEST(Params, JumpingRunsNameTheirAccesses) {
  auto V = parseParamsFile("mbw1c+e2+j9+w22 5052.734375:72\nmbw1c+e2+c9+w22 5052.734375:72\n",
                           "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].span, 9);
  EXPECT_TRUE(V[0].jumps);
  EXPECT_TRUE(V[0].spans(0));
  EXPECT_EQ(V[0].name(), "mbw1c+e2+j9+w22");
  EXPECT_EQ(paramsLine(V[0]), "mbw1c+e2+j9+w22 5052.734375:72");
  EXPECT_FALSE(V[1].jumps);
  EXPECT_NE(V[0].name(), V[1].name()) << "two walks, two profiles";
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+c8+j8 1024:2560\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+c8+j8': a column span (+c) and jumping runs (+j) do not "
            "combine");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+j3 1024:2560\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+j3': a jumping run (+j) holds at least 4 accesses");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+r2+j8 1024:2560:16\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+r2+j8': a jumping run (+j) and reuse windows (+r) do not "
            "combine");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+j8+e2 1024:2560\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+j8+e2': the suffixes come in the order +e, +r, +c (or +j), "
            "+k, +w");
  EXPECT_NE(inputErrorOf([] { parseParamsFile("cfma+j8 4:8\n", "p.txt"); })
                .find("takes no jumping runs (+j)"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] {
              parseParamsFile("spmv3+j136 14408:8;7204:4;109.375:8\n", "p.txt");
            }).find("a gather's rows walk in order"),
            std::string::npos);
}

// Reuse copies: "+k<K>" after "+c" and before "+w", in the name and the
// params line; memory uBs only (the gather too: NPB CG's SpMV clone).
TEST(Params, ReuseCopiesNameTheirCount) {
  auto V = parseParamsFile("upd1p+c95+k4+w19/9 34560:3840\nmbw1p 1024:8\n", "p.txt");
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].copies, 4);
  EXPECT_EQ(V[0].span, 95);
  EXPECT_EQ(V[0].work, 19);
  EXPECT_EQ(paramsLine(V[0]), "upd1p+c95+k4+w19/9 34560:3840");
  EXPECT_EQ(V[1].copies, 1);
  EXPECT_EQ(V[1].name(), "mbw1p");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+w2+k3 1024:8\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+w2+k3': the suffixes come in the order +e, +r, +c (or +j), +k, +w");
  EXPECT_EQ(inputErrorOf([] { parseParamsFile("mbw1p+k65 1024:8\n", "p.txt"); }),
            "p.txt: line 1: 'mbw1p+k65': the copies after +k must be a whole number from 1 to 64");
  EXPECT_NE(inputErrorOf([] { parseParamsFile("cfma+k2 4:8\n", "p.txt"); })
                .find("takes no reuse copies (+k)"),
            std::string::npos);
  EXPECT_EQ(parseParamsFile("spmv3+k2+w1/24 1024:8;512:4;1024:8\n", "p.txt")[0].copies, 2);
}

TEST(Stats, MeanMedianStddevAndTpi) {
  Stats T, U;
  computeStats({4, 1, 3, 2}, 1e6, T, U);
  EXPECT_DOUBLE_EQ(T.mean, 2.5);
  EXPECT_DOUBLE_EQ(T.median, 2.5);
  EXPECT_DOUBLE_EQ(T.min, 1);
  EXPECT_DOUBLE_EQ(T.max, 4);
  EXPECT_NEAR(T.stddev, std::sqrt(5.0 / 3.0), 1e-12);
  EXPECT_EQ(T.count, 4u);
  EXPECT_DOUBLE_EQ(U.mean, 2.5); // 2.5 s over 1e6 iterations = 2.5 µs
  EXPECT_DOUBLE_EQ(U.max, 4);
}

// The runner against the real kernel program: the tuples come back by
// construction, sorted by footprint, and the iteration count follows the
// definition (slowest thread, all sweeps of one repetition).
TEST(Runner, DeclaresTheTuplesItWalks) {
  KernelRunner R(PP_UBENCH_KERNELS, 2, "", "");
  RepPolicy Pol;
  Pol.minReps = 2, Pol.maxReps = 3, Pol.capS = 0.05, Pol.minRepS = 0.0005;
  UBenchConfig C;
  C.def = findUBench("mbw2hc");
  C.footprintKiB = {64, 256};
  C.strideBytes = {8, 4096};
  Profile P;
  ASSERT_EQ(R.measure(C, Pol, P), "");
  EXPECT_EQ(formatStreams(P.streams), "256:4096:8:shared;64:8:8:shared");
  EXPECT_EQ(P.threads, 2u);
  // Shared: every thread walks the larger stream, 256 KiB / 8 B elements per
  // sweep, a whole number of sweeps per repetition.
  double PerSweep = 256 * 1024 / 8;
  EXPECT_EQ(std::fmod(*P.iterations, PerSweep), 0);
  EXPECT_GT(P.tpiUs, 0);
  EXPECT_EQ(P.params.at("requested"), "64:8;256:4096");
  EXPECT_GE(P.tpiStats->count, 2u);

  // Private: each thread a slice; footprint is the span of all slices.
  C.def = findUBench("mbw1p");
  C.footprintKiB = {100};
  C.strideBytes = {64};
  ASSERT_EQ(R.measure(C, Pol, P), "");
  EXPECT_EQ(formatStreams(P.streams), "100:64:8:private");
  EXPECT_EQ(std::fmod(*P.iterations, 100 * 1024 / 8 / 2), 0);

  // Random: a power-of-two region and the mean jump as the stride, about a
  // third of the region.
  C.def = findUBench("mbw1cr");
  C.footprintKiB = {1000};
  C.strideBytes = {8};
  ASSERT_EQ(R.measure(C, Pol, P), "");
  EXPECT_EQ(P.streams[0].footprintKiB, 512);
  EXPECT_NEAR(P.streams[0].strideBytes / (512 * 1024.0), 1.0 / 3, 0.02);
  EXPECT_EQ(P.params.at("pattern"), "random");

  // Copy writes its second operand: the ops follow the streams.
  C.def = findUBench("cpy2p");
  C.footprintKiB = {64, 128};
  C.strideBytes = {8, 8};
  ASSERT_EQ(R.measure(C, Pol, P), "");
  EXPECT_EQ(P.params.at("ops"), "store;load");

  // Padding lengthens every iteration and leaves the declared streams as
  // they are; the profile is a uB of its own.
  // Timed on one thread with more repetitions: with two, a repetition of a
  // few microseconds waits at the join for a sibling the scheduler took
  // away, and on a loaded machine (ctest -j2 beside the lit tests) every
  // one of three plain repetitions did (fastest 1.6 us per iteration,
  // 2000x its usual time).
  KernelRunner One(PP_UBENCH_KERNELS, 1, "", "");
  RepPolicy More = Pol;
  More.minReps = 7, More.maxReps = 9;
  C.def = findUBench("mbw1c");
  C.footprintKiB = {64};
  C.strideBytes = {8};
  Profile Plain, Padded;
  ASSERT_EQ(One.measure(C, More, Plain), "");
  C.work = 64;
  ASSERT_EQ(One.measure(C, More, Padded), "");
  EXPECT_EQ(Padded.ubench, "mbw1c+w64");
  EXPECT_EQ(Padded.params.at("work"), "64");
  EXPECT_EQ(formatStreams(Padded.streams), formatStreams(Plain.streams));
  EXPECT_EQ(std::fmod(*Padded.iterations, 64 * 1024 / 8), 0); // whole sweeps, as unpadded
  // The fastest repetitions: a 64 KiB sweep takes microseconds, and one
  // descheduling on a loaded machine made the plain median 800x its usual
  // value (seen under ctest -j2 beside the uB lit tests).
  ASSERT_TRUE(Padded.tpiStats && Plain.tpiStats);
  EXPECT_GT(Padded.tpiStats->min, 5 * Plain.tpiStats->min);
  // One kernel iteration standing for 6 of the phase's: the same sweeps,
  // six times the iterations, a sixth of the time per iteration.
  C.every = 6;
  Profile Every;
  ASSERT_EQ(One.measure(C, More, Every), "");
  EXPECT_EQ(Every.ubench, "mbw1c+e6+w64");
  EXPECT_EQ(Every.params.at("every"), "6");
  EXPECT_EQ(formatStreams(Every.streams), formatStreams(Padded.streams));
  double Sweeps = std::stod(Every.params.at("sweeps"));
  EXPECT_DOUBLE_EQ(*Every.iterations, 6 * Sweeps * (64 * 1024 / 8));
  EXPECT_DOUBLE_EQ(Every.tpiUs, *Every.timeS * 1e6 / *Every.iterations);
  C.every = 1;
  // The padding after every 8th iteration: the same walk, named and stored
  // as such, cheaper than after every iteration.
  C.workEvery = 8;
  Profile Spread;
  ASSERT_EQ(One.measure(C, More, Spread), "");
  EXPECT_EQ(Spread.ubench, "mbw1c+w64/8");
  EXPECT_EQ(Spread.params.at("work_every"), "8");
  EXPECT_EQ(formatStreams(Spread.streams), formatStreams(Padded.streams));
  ASSERT_TRUE(Spread.tpiStats);
  EXPECT_LT(Spread.tpiStats->min, Padded.tpiStats->min);
  C.workEvery = 1;
  // Reuse windows: the region cut to whole windows, walked R times a sweep.
  C.footprintKiB = {64};
  C.work = 0;
  C.windowAccesses = {1000};
  C.repeats = 4;
  Profile Windows;
  ASSERT_EQ(One.measure(C, More, Windows), "");
  EXPECT_EQ(Windows.ubench, "mbw1c+r4");
  EXPECT_EQ(Windows.params.at("requested"), "64:8:1000");
  EXPECT_EQ(formatStreams(Windows.streams), "62.5:8:8:shared"); // 8 windows of 1000 of 8192
  EXPECT_DOUBLE_EQ(*Windows.iterations,
                   4 * 8000 * std::stod(Windows.params.at("sweeps")));
  C.windowAccesses = {10000};
  EXPECT_NE(R.measure(C, Pol, P).find("window of 10000 accesses exceeds"), std::string::npos);
  C.windowAccesses.clear();
  C.repeats = 1;
  C.work = 64;
  C.def = findUBench("cfma");
  C.footprintKiB = {4};
  EXPECT_NE(R.measure(C, Pol, P).find("compute kernels take no padding"), std::string::npos);
  C.work = 0;

  // A configuration the kernel cannot walk as declared is refused.
  C.def = findUBench("mbw1c");
  C.footprintKiB = {4};
  C.strideBytes = {4096};
  EXPECT_NE(R.measure(C, Pol, P).find("fewer than 4 strides"), std::string::npos);
}

// phaseprobe-ubench run --interleave keeps several runners alive; each must
// end on its own (a child that inherited another's stdin never saw EOF).
TEST(Runner, RunnersAliveTogetherEachEndOnTheirOwn) {
  auto A = std::make_unique<KernelRunner>(PP_UBENCH_KERNELS, 1, "", "");
  auto B = std::make_unique<KernelRunner>(PP_UBENCH_KERNELS, 2, "", "");
  A.reset(); // hung here before the pipes were close-on-exec
  B.reset();
  SUCCEED();
}

TEST(Runner, MissingProgramIsAWorkError) {
  EXPECT_THROW(KernelRunner("/nonexistent/kernels", 1, "", ""), WorkError);
}

//===--- Calibration search (synthetic times per iteration) ------------------===//

namespace {
/// A clone whose time per iteration follows \p Curve of the padding rate
/// (steps per iteration), counting the measurements.
struct CurveClone {
  std::function<double(double)> Curve;
  std::vector<std::pair<long, long>> Asked;
  TpiMeasure measure() {
    return [this](const UBenchConfig &C, double &Tpi) {
      Asked.emplace_back(C.work, C.workEvery);
      Tpi = Curve(double(C.work) / double(C.workEvery));
      return std::string();
    };
  }
};

UBenchConfig mbw1p() {
  UBenchConfig C;
  C.def = findUBench("mbw1p");
  C.footprintKiB = {1024};
  C.strideBytes = {8};
  return C;
}
} // namespace

TEST(Calibrate, PaddingFractionPrefersTheSmallestDenominator) {
  EXPECT_EQ(paddingFraction(3.0), std::make_pair(3L, 1L));
  EXPECT_EQ(paddingFraction(1.5), std::make_pair(3L, 2L));
  EXPECT_EQ(paddingFraction(0.25), std::make_pair(1L, 4L));
  EXPECT_EQ(paddingFraction(0.4), std::make_pair(2L, 5L)); // 1/2 and 1/3 are 25% and 17% off
  EXPECT_EQ(paddingFraction(20.3), std::make_pair(41L, 2L)); // 20 is 1.5% off
  EXPECT_EQ(paddingFraction(0.001), std::make_pair(1L, 64L)); // the finest there is
  EXPECT_EQ(paddingFraction(0.4, 2), std::make_pair(1L, 2L));
}

// A step costs 2 units and the target lies halfway between one and two
// steps (each 25% off): whole steps cannot reach it, 3 steps per 2
// iterations do.
TEST(Calibrate, FractionalRateBetweenWholeSteps) {
  CurveClone K{[](double R) { return 1.0 + 2.0 * R; }, {}};
  Calibration Cal = calibrateWork(K.measure(), mbw1p(), 4.0);
  EXPECT_TRUE(Cal.why.empty()) << Cal.why;
  EXPECT_EQ(Cal.work, 3);
  EXPECT_EQ(Cal.workEvery, 2);
  EXPECT_DOUBLE_EQ(Cal.tpiUs, 4.0);
  EXPECT_LE(Cal.measurements, 10);
  EXPECT_EQ(Cal.measurements, int(K.Asked.size()));
}

// One step overshoots (NPB CG's sparse mat-vec): a step every few
// iterations, as +w1/M did.
TEST(Calibrate, LessThanOneStepPerIteration) {
  CurveClone K{[](double R) { return 1.0 + 2.0 * R; }, {}};
  Calibration Cal = calibrateWork(K.measure(), mbw1p(), 1.5);
  EXPECT_TRUE(Cal.why.empty()) << Cal.why;
  EXPECT_EQ(Cal.work, 1);
  EXPECT_EQ(Cal.workEvery, 4);
  EXPECT_NEAR(Cal.tpiUs, 1.5, 1e-12);
}

// The first steps hide behind the accesses, and the cost per step grows
// afterwards: the secant from the unpadded time overshoots and
// undershoots; the bracket still closes in within 5%.
TEST(Calibrate, NonlinearCostConverges) {
  for (double Target : {1.6, 2.3, 3.7, 9.1, 31.0}) {
    CurveClone K{[](double R) { return R < 2 ? 1.0 : 1.0 + std::pow(R - 2, 1.3) * 0.4; }, {}};
    Calibration Cal = calibrateWork(K.measure(), mbw1p(), Target);
    EXPECT_TRUE(Cal.why.empty()) << Target << ": " << Cal.why;
    EXPECT_LE(std::fabs(Cal.tpiUs - Target) / Target, 0.05) << Target;
    EXPECT_LE(Cal.measurements, 10) << Target;
    EXPECT_EQ(Cal.tpiUs, K.Curve(double(Cal.work) / double(Cal.workEvery))) << Target;
  }
}

// Noise that makes the times cross (a slower measurement at a lower rate)
// stops the search on the best measured; it never loops.
TEST(Calibrate, CrossingTimesStopTheSearch) {
  int Calls = 0;
  TpiMeasure Noisy = [&](const UBenchConfig &C, double &Tpi) {
    ++Calls;
    double R = double(C.work) / double(C.workEvery);
    Tpi = R == 0 ? 1.0 : (Calls % 2 ? 10.0 - R * 0.1 : 0.5 + R * 0.01);
    return std::string();
  };
  Calibration Cal = calibrateWork(Noisy, mbw1p(), 4.0);
  EXPECT_LE(Cal.measurements, 20);
  EXPECT_EQ(Cal.measurements, Calls);
}

// One outlier (16 steps measured 3x slower once, on a busy machine) closes
// the bracket below the target's rate and nothing comes within 25%: the
// search runs once more and pads, the first search's measurements counted.
TEST(Calibrate, OneOutlierIsSearchedAgain) {
  bool Disturbed = false;
  std::vector<std::pair<long, long>> Asked;
  TpiMeasure M = [&](const UBenchConfig &C, double &Tpi) {
    Asked.emplace_back(C.work, C.workEvery);
    double R = double(C.work) / double(C.workEvery);
    Tpi = 1.0 + 0.1 * R;
    if (R == 16 && !Disturbed)
      Disturbed = true, Tpi *= 3;
    return std::string();
  };
  Calibration Cal = calibrateWork(M, mbw1p(), 4.0); // 30 steps
  EXPECT_TRUE(Cal.why.empty()) << Cal.why;
  EXPECT_LE(std::fabs(Cal.tpiUs - 4.0) / 4.0, 0.05);
  EXPECT_GT(Cal.measurements, 2);
  EXPECT_LE(Cal.measurements, 20);
  EXPECT_EQ(Cal.measurements, int(Asked.size()));
  EXPECT_EQ(std::count(Asked.begin(), Asked.end(), std::make_pair(0L, 1L)), 2); // two searches
}

// A kernel that refuses the fractional rate keeps the best whole step.
TEST(Calibrate, RefusedFractionKeepsTheWholeSteps) {
  TpiMeasure M = [](const UBenchConfig &C, double &Tpi) {
    if (C.workEvery > 1)
      return std::string("no spread padding here");
    Tpi = 1.0 + 2.0 * double(C.work);
    return std::string();
  };
  Calibration Cal = calibrateWork(M, mbw1p(), 4.4);
  EXPECT_TRUE(Cal.why.empty()) << Cal.why;
  EXPECT_EQ(Cal.work, 2);
  EXPECT_EQ(Cal.workEvery, 1);
}

TEST(Calibrate, NoPaddingNearTheUnpaddedClone) {
  CurveClone K{[](double R) { return 1.0 + 2.0 * R; }, {}};
  Calibration Cal = calibrateWork(K.measure(), mbw1p(), 1.2);
  EXPECT_EQ(Cal.work, 0);
  EXPECT_EQ(Cal.why, "the unpadded clone is within 25% of the phase or slower");
  EXPECT_EQ(Cal.measurements, 1);
}

// A padding that never comes near (the time jumps past the target) is
// refused, naming the best configuration measured in full: a clone's pace
// (+e) as well as its padding.
TEST(Calibrate, FarOffPaddingNamesTheBestConfiguration) {
  UBenchConfig C = mbw1p();
  C.every = 2;
  CurveClone K{[](double R) { return R == 0 ? 1.0 : 100.0; }, {}};
  Calibration Cal = calibrateWork(K.measure(), C, 10.0);
  EXPECT_EQ(Cal.work, 0);
  EXPECT_EQ(Cal.why.rfind("no padding came within 25% of the phase's time per iteration (best "
                          "mbw1p+e2+w",
                          0),
            0u)
      << Cal.why;
}
