//===- CloneTest.cpp - Phase clones: streams → uB configurations ----------===//
#include "phaseprobe/error.h"
#include "phaseprobe/ubench.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace phaseprobe;

namespace {

/// A phase file with \p Phases (JSON array text) at 2 threads; L1d 32 KiB.
ClonePhases phases(const std::string &Phases) {
  std::string T = R"({"schema": "phaseprobe.phases/1",
    "program": {"total_time_s": 1, "threads": 2},
    "node": {"label": "bn", "caches_kib": {"l1d": 32}},
    "phases": )" + Phases +
                  "}";
  return parseClonePhases(T, "p.json");
}

std::string stream(const std::string &Id, double K, double S, unsigned E, const char *Acc,
                   const char *Extra = "") {
  return R"({"id": ")" + Id + R"(", "footprint_kib": )" + std::to_string(K) +
         R"(, "stride_bytes": )" + std::to_string(S) + R"(, "elem_bytes": )" + std::to_string(E) +
         R"(, "access": ")" + Acc + "\"" + Extra + "}";
}

std::string phase(const std::string &Id, const std::vector<std::string> &Streams,
                  const char *Extra = "") {
  std::string S;
  for (const std::string &X : Streams)
    S += (S.empty() ? "" : ",") + X;
  return R"({"id": ")" + Id + R"(", "threads": 2, "time_s": 0.5, "iterations": 100,
            "tpi_us": 5000)" +
         Extra + R"(, "streams": [)" + S + "]}";
}

std::vector<std::string> lines(const CloneSet &C) {
  std::vector<std::string> L;
  for (const UBenchConfig &X : C.configs)
    L.push_back(paramsLine(X));
  return L;
}

CloneSet cloneOne(const std::string &Phases) { return clonePhases({phases(Phases)}); }

} // namespace

TEST(Clone, SharedDoubleStreamIsMbw1c) {
  CloneSet C = cloneOne("[" + phase("a.c:1:1", {stream("v1", 7812.5, 8, 8, "shared")}) + "]");
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1c 7812.5:8"}));
  EXPECT_TRUE(C.notes.empty());
}

TEST(Clone, APrivateDoubleStreamIsMbw1pNeverTheBarrierUB) {
  CloneSet C = cloneOne("[" + phase("a.c:1:1", {stream("v1", 1024, 8, 8, "private")}) + "]");
  for (const std::string &L : lines(C))
    EXPECT_EQ(L.rfind("bar1p", 0), std::string::npos) << L;
  EXPECT_FALSE(lines(C).empty());
}

TEST(Clone, PrivateFloatStreamIsTheFloatUBRoundedToTheKernelsSlices) {
  // 100.01 KiB at 2 threads: whole floats per thread slice (12801 each).
  CloneSet C = cloneOne("[" + phase("a.c:1:1", {stream("v1", 100.01, 4, 4, "private")}) + "]");
  // 4-byte private loads: the float and the int read-reduce uBs both declare
  // them (a phase file does not tell int from float).
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1pf 100.0078125:4", "mbw1pi 100.0078125:4"}));
}

TEST(Clone, TwoSharedDoublesAreMbw2hcLargestFirst) {
  CloneSet C = cloneOne(
      "[" +
      phase("a.c:1:1", {stream("v1", 512, 64, 8, "shared"), stream("v2", 2048, 8, 8, "shared")}) +
      "]");
  // One-stream clones of each stream, and the pair in the matcher's order.
  EXPECT_EQ(lines(C),
            (std::vector<std::string>{"mbw1c 512:64", "mbw1c 2048:8", "mbw2hc 2048:8;512:64"}));
}

TEST(Clone, APrivateAndASharedStreamAreMbw2hpcInEitherOrder) {
  CloneSet C = cloneOne(
      "[" +
      phase("mm.c:28:1", {stream("v1", 1953.125, 8, 8, "private"),
                          stream("v2", 1953.1171875, 4000, 8, "shared")}) +
      "," +
      phase("mm.c:40:1", {stream("v1", 100, 8, 8, "shared"), stream("v2", 50, 16, 8, "private")}) +
      "]");
  auto L = lines(C);
  // mbw2hpc's first operand is the private one, whichever stream is larger.
  EXPECT_NE(std::find(L.begin(), L.end(), "mbw2hpc 1953.125:8;1953.1171875:4000"), L.end());
  EXPECT_NE(std::find(L.begin(), L.end(), "mbw2hpc 50:16;100:8"), L.end());
  EXPECT_TRUE(C.notes.empty());
}

TEST(Clone, ASparseMatVecIsSpmv3WithItsVectorsOwnSize) {
  // NPB CG A's SpMV: the matrix and its int column indices private, the
  // vector shared and gathered at random (a third of it a jump apart).
  // Before spmv3 no uB had its mixed element sizes: its clone was its
  // matrix's alone. The gathered vector keeps its 109.375 KiB (no power of
  // two: the kernel reads it through the indices).
  CloneSet C = cloneOne(
      "[" +
      phase("cg.c:422:1", {stream("v1", 14471.25, 8, 8, "private"),
                           stream("v2", 7235.625, 4, 4, "private"),
                           stream("v3", 109.375, 37380, 8, "shared", R"(, "pattern": "random")")}) +
      "]");
  auto L = lines(C);
  EXPECT_NE(std::find(L.begin(), L.end(), "spmv3 14471.25:8;7235.625:4;109.375:8"), L.end());
  ASSERT_FALSE(C.targets.empty());
  EXPECT_EQ(C.targets.back().config.def->name, "spmv3") << "the phase's own clone";
  EXPECT_TRUE(C.notes.empty());
}

TEST(Clone, ASparseMatVecsRowsAreItsClonesSpan) {
  // The same SpMV as the runtime writes it: 135.54 accesses of the matrix
  // and its indices a loop execution, one row. Its clone sums rows of 136
  // (spmv3+c136), as CG does; one sum over the whole slice ran 10-14%
  // slower per element at two threads on the AMD EPYC VM.
  const char *Row = R"(, "accesses_per_execution": 135.54)";
  CloneSet C = cloneOne(
      "[" +
      phase("cg.c:422:1", {stream("v1", 14471.25, 8, 8, "private", Row),
                           stream("v2", 7235.625, 4, 4, "private", Row),
                           stream("v3", 109.375, 37380, 8, "shared", R"(, "pattern": "random")")}) +
      "]");
  auto L = lines(C);
  EXPECT_NE(std::find(L.begin(), L.end(), "spmv3+c136 14471.25:8;7235.625:4;109.375:8"), L.end());
  EXPECT_NE(std::find(L.begin(), L.end(), "mbw1p 14471.25:8"), L.end())
      << "a stream's own clone has no rows";
  ASSERT_FALSE(C.targets.empty());
  EXPECT_EQ(C.targets.back().config.name(), "spmv3+c136") << "the phase's own clone";
  EXPECT_TRUE(C.targets.back().config.rows());
}

TEST(Clone, AStencilsMatVecIsTheBandedSpmv3p) {
  // Mantevo HPCCG's SpMV (128 x 128 x 96 at two threads): the matrix, its
  // int column indices and the vector all private and strided, each row
  // reading x near its own index. Before spmv3p no uB had three private
  // streams of 8, 4 and 8 bytes ("no uB has 3 streams like ..."): it
  // matched the matrix's read-reduce alone, one dependent sum where its
  // rows' sums overlap.
  CloneSet C = cloneOne(
      "[" +
      phase("HPC_sparsemv.cpp:73:1", {stream("v1", 326048.21875, 8, 8, "private"),
                                      stream("v2", 163024.109375, 4, 4, "private"),
                                      stream("v3", 12288, 8, 8, "private")}) +
      "]");
  auto L = lines(C);
  EXPECT_NE(std::find(L.begin(), L.end(), "spmv3p 326048.21875:8;163024.109375:4;12288:8"),
            L.end());
  ASSERT_FALSE(C.targets.empty());
  EXPECT_EQ(C.targets.back().config.def->name, "spmv3p") << "the phase's own clone";
  EXPECT_TRUE(C.notes.empty());
}

TEST(Clone, RunsWithoutSamplingGiveTheTargetsTheirTimes) {
  // bench/accuracy --base-timing unsampled: one sampled run (streams) and
  // runs with sampling off, whose times the estimator starts from. The
  // targets are those runs with the sampled run's streams, so the padding
  // is calibrated to their median, not to the sampled run's slower time.
  auto Run = [](bool Sampling, double Tpi, const std::string &File,
                const std::string &Node = "bn") {
    std::string Streams = Sampling ? stream("v1", 1024, 8, 8, "private") : "";
    std::string T = R"({"schema": "phaseprobe.phases/1",
      "program": {"name": "app", "argv": ["app", "7"], "total_time_s": 1, "threads": 2,
                  "sampling": )" + std::string(Sampling ? "true" : "false") + R"(},
      "node": {"label": ")" + Node + R"(", "caches_kib": {"l1d": 32}},
      "phases": [{"id": "a.c:1:1", "threads": 2, "time_s": )" + std::to_string(Tpi * 1e-4) +
                     R"(, "iterations": 100, "tpi_us": )" + std::to_string(Tpi) +
                     R"(, "streams": [)" + Streams + "]}]}";
    return parseClonePhases(T, File);
  };
  CloneSet C = clonePhases({Run(true, 6000, "s.json"), Run(false, 5000, "o1.json"),
                            Run(false, 5200, "o2.json"), Run(false, 4900, "o3.json")});
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1p 1024:8"}));
  ASSERT_EQ(C.targets.size(), 3u) << "one per run without sampling";
  std::vector<double> Tpi;
  for (const CloneTarget &T : C.targets) {
    Tpi.push_back(T.tpiUs);
    EXPECT_EQ(T.program, "app 7");
  }
  std::sort(Tpi.begin(), Tpi.end());
  EXPECT_EQ(Tpi, (std::vector<double>{4900, 5000, 5200})) << "never the sampled run's 6000";
  EXPECT_EQ(C.targets[0].where, "o1.json: a.c:1:1");
  // Sampled runs alone are the targets, as before.
  EXPECT_EQ(clonePhases({Run(true, 6000, "s.json")}).targets.at(0).tpiUs, 6000);
  // A run without sampling on another node is not one of them: no error
  // (it would not merge), the sampled run its own target.
  CloneSet Other = clonePhases({Run(true, 6000, "s.json"), Run(false, 5000, "o.json", "other")});
  ASSERT_EQ(Other.targets.size(), 1u);
  EXPECT_EQ(Other.targets[0].tpiUs, 6000);
}

TEST(Clone, UnclonableElementSizeIsReported) {
  CloneSet C = cloneOne(
      "[" +
      phase("mm.c:28:1", {stream("v1", 64, 8, 8, "shared"), stream("v2", 48, 2, 2, "private")}) +
      "]");
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1c 64:8"}));
  ASSERT_EQ(C.notes.size(), 2u);
  EXPECT_EQ(C.notes[0], "p.json: mm.c:28:1 v2: no uB walks a private 2-byte stream");
  EXPECT_NE(C.notes[1].find("mm.c:28:1: no uB has 2 streams like its shared 8-byte stream, "
                            "private 2-byte stream"),
            std::string::npos)
      << C.notes[1];
}

TEST(Clone, LoadStoreChoosesTheUBThatWritesWhereTheCatalogueHasOne) {
  CloneSet C = cloneOne(
      "[" + phase("a.c:1:1", {stream("v1", 1024, 8, 8, "private", R"(, "op": "load+store")")}) +
      "," +
      phase("a.c:2:1", {stream("v1", 1024, 8, 8, "private", R"(, "op": "load")"),
                        stream("v2", 512, 8, 8, "private", R"(, "op": "store")")}) +
      "," +
      // A shared stream that is written with a stride of 2 elements: too
      // few columns for its threads to split (upd1c), the read-reduce uB
      // stands in.
      phase("a.c:3:1", {stream("v1", 1024, 16, 8, "shared", R"(, "op": "store")")}) + "," +
      // Two private stores: no uB writes two streams; the copy writes one of
      // them, so it reproduces more of the phase than the two-load uB.
      phase("a.c:4:1", {stream("v1", 2048, 8, 8, "private", R"(, "op": "store")"),
                        stream("v2", 2048, 8, 8, "private", R"(, "op": "store")")}) +
      "]");
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1c 1024:16", "mbw1p 1024:8",
                                                "cpy2p 1024:8;512:8", "cpy2p 2048:8;2048:8",
                                                "upd1p 1024:8", "st1p 512:8", "st1p 2048:8"}));
}

TEST(Clone, AWrittenSharedStreamOfWholeColumnsGetsUpd1cBesideItsOwnClone) {
  // The example bt's z sweep: 64 accesses a column, one plane (160 KiB)
  // apart, the threads' lines of one array: its threads split the columns
  // in upd1c, measured beside the read-only walk, which stays its own clone
  // (the one padded to its tpi).
  CloneSet C = cloneOne(
      "[" +
      phase("a.c:1:1",
            {stream("v1", 10239.75, 163840, 8, "shared", R"(, "op": "load+store")")}) +
      "," +
      // Only stored: no uB only stores a shared stream; the update and the
      // read-reduce walk both reproduce its walk, neither its op.
      phase("a.c:2:1", {stream("v1", 4096, 32768, 8, "shared", R"(, "op": "store")")}) + "," +
      // A reuse window: upd1c walks whole columns only.
      phase("a.c:3:1", {stream("v1", 10239.75, 163840, 8, "shared",
                               R"(, "op": "load+store", "window_accesses": 16, "window_repeats": 8)")}) +
      "]");
  auto L = lines(C);
  EXPECT_NE(std::find(L.begin(), L.end(), "upd1c 10239.75:163840"), L.end());
  EXPECT_NE(std::find(L.begin(), L.end(), "mbw1c 10239.75:163840"), L.end());
  ASSERT_FALSE(C.targets.empty());
  EXPECT_EQ(paramsLine(C.targets.front().config), "mbw1c 10239.75:163840");
  EXPECT_NE(std::find(L.begin(), L.end(), "upd1c 4096:32768"), L.end());
  EXPECT_NE(std::find(L.begin(), L.end(), "mbw1c 4096:32768"), L.end());
  EXPECT_NE(std::find(L.begin(), L.end(), "mbw1c+r8 10239.75:163840:16"), L.end());
  for (const std::string &X : L)
    EXPECT_TRUE(X.rfind("upd1c+r", 0) == std::string::npos) << "no windowed upd1c: " << X;
}

TEST(Catalog, OnlyWrittenSharedStreamsSplitColumns) {
  EXPECT_TRUE(findUBench("upd1c")->splitsColumns(0));
  EXPECT_TRUE(findUBench("upd1cf")->splitsColumns(0));
  for (const char *N : {"upd1p", "mbw1c", "st1p", "mbw2hpc"})
    for (std::size_t Q = 0; Q < findUBench(N)->streams(); ++Q)
      EXPECT_FALSE(findUBench(N)->splitsColumns(Q)) << N << " " << Q;
  // The grids give it strides with a column per thread.
  for (const UBenchConfig &X : makeGrid(GridLevel::Quick, 32, 1024, 32768, 16, {findUBench("upd1c")}))
    EXPECT_GE(X.strideBytes[0], 8 * 16) << X.requested();
}

TEST(Clone, OperandsFollowTheDeclaredStreamsNotThePhaseOrder) {
  // triad stores into its first operand: the largest phase stream is a load.
  CloneSet C =
      cloneOne("[" +
               phase("a.c:1:1", {stream("v1", 4096, 8, 8, "private", R"(, "op": "load")"),
                                 stream("v2", 2048, 8, 8, "private", R"(, "op": "store")"),
                                 stream("v3", 1024, 8, 8, "private", R"(, "op": "load")")}) +
               "]");
  auto L = lines(C);
  EXPECT_NE(std::find(L.begin(), L.end(), "tri3p 2048:8;4096:8;1024:8"), L.end());
  EXPECT_TRUE(C.notes.empty());
}

TEST(Clone, AnUpdatedStreamBesideAReadOneIsAnAxpy) {
  // HPCCG's waxpby as the runtime merges its sites: w with x (the same
  // vector in two calls of three), y apart. axpy2p does its loads and its
  // store; mbw2hp (two loads) and cpy2p (a load, a store) one op each.
  CloneSet C = cloneOne(
      "[" +
      phase("a.c:1:1", {stream("v1", 24576, 8, 8, "private", R"(, "op": "load+store")"),
                        stream("v2", 12288, 8, 8, "private", R"(, "op": "load")")}) +
      "]");
  auto L = lines(C);
  EXPECT_NE(std::find(L.begin(), L.end(), "axpy2p 24576:8;12288:8"), L.end());
  for (const std::string &X : L)
    EXPECT_TRUE(X.rfind("mbw2hp", 0) == std::string::npos && X.rfind("cpy2p", 0) == std::string::npos)
        << X;
  ASSERT_FALSE(C.targets.empty());
  EXPECT_EQ(paramsLine(C.targets.front().config), "axpy2p 24576:8;12288:8");
}

TEST(Clone, RandomStreamsAndSignificanceAndLeaves) {
  CloneSet C = cloneOne(
      "[" + phase("a.c:1:1", {}, R"(, "kind": "parallel")") + "," +
      phase("a.c:2:1", {stream("v1", 900, 0, 8, "shared")},
            R"(, "kind": "for", "parent": "a.c:1:1")") +
      "," +
      phase("a.c:3:1", {stream("v1", 3000, 1234, 8, "private", R"(, "pattern": "random")"),
                        stream("v2", 16, 8, 8, "shared"), // fits in L1d
                        stream("v3", 8, 8, 8, "shared", R"(, "significant": true)")}) + // flagged
      "]");
  // 3000 KiB private at 2 threads: 192000 doubles per thread → nearest power
  // of two 2^18 = 262144 → 4096 KiB walked, with the phase's mean jump (154
  // elements).
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1c 8:8", "mbw1pr 4096:1232"}));
  ASSERT_EQ(C.notes.size(), 2u);
  EXPECT_EQ(C.notes[0], "p.json: a.c:2:1 v1: stride 0 B (one element over and over): no kernel "
                        "walks it");
  EXPECT_NE(C.notes[1].find("a.c:3:1: no uB has 2 streams like its private 8-byte random stream, "
                            "shared 8-byte stream"),
            std::string::npos)
      << C.notes[1];
}

// A random stream's stride is its mean jump: a search over a table jumps a
// little at a time (XSBench: 21 KB in 36 MB), and the clone walks it so; a
// jump of a third of the region or more is a uniform draw's, and the uniform
// draw is asked for with a stride of one element.
TEST(Clone, RandomStreamsKeepTheirMeanJump) {
  const char *R = R"(, "pattern": "random")";
  CloneSet C = cloneOne(
      "[" + phase("a.c:1:1", {stream("v1", 36011.7, 21612, 8, "shared", R)}) + "," +
      phase("a.c:2:1", {stream("v1", 1024, 400000, 8, "shared", R)}) + "," +
      phase("a.c:3:1", {stream("v1", 1024, 8, 8, "shared", R)}) + "]");
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1cr 1024:8", "mbw1cr 32768:21616"}));
  EXPECT_TRUE(C.notes.empty());
}

TEST(Clone, TooFewStridesAndDuplicatesAcrossFiles) {
  std::string P = "[" +
                  phase("a.c:1:1", {stream("v1", 40, 16384, 8, "shared"),
                                    stream("v2", 3000, 64, 8, "shared")}) +
                  "]";
  CloneSet C = clonePhases({phases(P), phases(P)});
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1c 3000:64"}));
  ASSERT_EQ(C.notes.size(), 2u);
  EXPECT_EQ(C.notes[0], "p.json: a.c:1:1 v1: footprint 40 KiB holds fewer than 4 strides of "
                        "16384 B (the kernels' minimum for a strided stream)");
  // An explicit L1d makes the 40 KiB stream insignificant: nothing to report.
  CloneSet D = clonePhases({phases(P)}, 64);
  EXPECT_EQ(lines(D), (std::vector<std::string>{"mbw1c 3000:64"}));
  EXPECT_TRUE(D.notes.empty());
}

TEST(Clone, ClonesAreValidParamsLines) {
  CloneSet C = cloneOne(
      "[" +
      phase("a.c:1:1", {stream("v1", 7812.5, 8, 8, "shared"), stream("v2", 100, 4, 4, "private")}) +
      "]");
  std::string Text;
  for (const std::string &L : lines(C))
    Text += L + "\n";
  auto Back = parseParamsFile(Text, "x");
  ASSERT_EQ(Back.size(), C.configs.size());
  for (std::size_t I = 0; I < Back.size(); ++I)
    EXPECT_EQ(paramsLine(Back[I]), paramsLine(C.configs[I]));
}

TEST(Clone, BadPatternIsAnInputError) {
  try {
    cloneOne("[" +
             phase("a.c:1:1", {stream("v1", 64, 8, 8, "shared", R"(, "pattern": "zigzag")")}) +
             "]");
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_EQ(std::string(E.what()),
              "p.json: phases[0].streams[0].pattern: 'zigzag' is not strided or random");
  }
}

TEST(Clone, EveryPhaseIsATargetWithItsOwnCloneOrItsLargestStreams) {
  CloneSet C = cloneOne("[" +
                        phase("one", {stream("v1", 1024, 8, 8, "shared")}) + "," +
                        phase("two", {stream("v1", 256, 8, 8, "shared"),
                                      stream("v2", 1024, 64, 8, "shared")}) + "," +
                        phase("four", {stream("v1", 1024, 8, 8, "shared"),
                                       stream("v2", 512, 8, 8, "shared"),
                                       stream("v3", 256, 8, 8, "shared"),
                                       stream("v4", 128, 8, 8, "shared")}) +
                        "]");
  // No uB walks four streams together: the clone of the largest stands in.
  ASSERT_EQ(C.targets.size(), 3u);
  EXPECT_EQ(C.targets[2].phase, "four");
  EXPECT_EQ(paramsLine(C.targets[2].config), "mbw1c 1024:8");
  EXPECT_EQ(C.targets[0].phase, "one");
  EXPECT_EQ(paramsLine(C.targets[0].config), "mbw1c 1024:8");
  EXPECT_EQ(C.targets[1].phase, "two");
  EXPECT_EQ(paramsLine(C.targets[1].config), "mbw2hc 1024:64;256:8"); // both streams
  EXPECT_EQ(C.targets[1].threads, 2u);
  EXPECT_DOUBLE_EQ(C.targets[1].tpiUs, 5000);
  EXPECT_EQ(C.targets[1].where, "p.json: two");
  EXPECT_EQ(C.targets[0].program, C.targets[1].program);
}

// lud's block update touches its matrix in 1 of 6 iterations (the others
// multiply cached 16x16 copies): its clone walks the matrix once per 6
// iterations. Streams every iteration touches, or more than once, keep one
// kernel iteration per iteration; so do files without the rate. Clones of
// several streams go at the busiest one's pace (TwoStreamsGoAtTheBusiest).
TEST(Clone, StreamsTouchedInAFewIterationsGetAKernelIterationPerSeveral) {
  CloneSet C = cloneOne(
      "[" +
      phase("lud", {stream("v1", 16384, 4, 4, "shared",
                           R"(, "op": "load+store", "accesses_per_iteration": 0.181)")}) +
      "," +
      phase("perimeter", {stream("v1", 15819, 4, 4, "private",
                                 R"(, "accesses_per_iteration": 0.47)"),
                          stream("v2", 120, 4, 4, "shared", R"(, "accesses_per_iteration": 0.06)")}) +
      "," + phase("mm", {stream("v1", 2048, 8, 8, "shared", R"(, "accesses_per_iteration": 6)")}) +
      "," + phase("old", {stream("v1", 4096, 8, 8, "shared")}) + "]");
  ASSERT_EQ(C.targets.size(), 4u);
  EXPECT_EQ(C.targets[0].config.every, 6);
  EXPECT_NE(paramsLine(C.targets[0].config).find("+e6 16384:4"), std::string::npos)
      << paramsLine(C.targets[0].config);
  // No uB walks a private and a shared float together: the clone of the
  // largest stream is the phase's, at that stream's pace (1 / 0.47).
  EXPECT_EQ(C.targets[1].config.every, 2);
  EXPECT_EQ(C.targets[1].config.def->streams(), 1u);
  EXPECT_EQ(C.targets[2].config.every, 1);
  EXPECT_EQ(C.targets[3].config.every, 1);
  // The one-stream clones of the perimeter's streams keep their own rates.
  bool Slow = false;
  for (const std::string &L : lines(C))
    Slow |= L.find("+e17 120:4") != std::string::npos;
  EXPECT_TRUE(Slow);
}

TEST(Clone, ANegativeAccessRateIsAnInputError) {
  try {
    cloneOne("[" +
             phase("a", {stream("v1", 1024, 8, 8, "shared", R"(, "accesses_per_iteration": -1)")}) +
             "]");
    FAIL() << "no InputError";
  } catch (const InputError &E) {
    EXPECT_NE(std::string(E.what()).find("accesses_per_iteration: must be >= 0"),
              std::string::npos)
        << E.what();
  }
}

TEST(Clone, TwoStreamsGoAtTheBusiest) {
  CloneSet C = cloneOne("[" +
                        phase("two", {stream("v1", 1024, 64, 8, "shared",
                                             R"(, "accesses_per_iteration": 0.25)"),
                                      stream("v2", 256, 8, 8, "shared",
                                             R"(, "accesses_per_iteration": 0.1)")}) +
                        "," +
                        phase("half", {stream("v1", 1024, 64, 8, "shared",
                                              R"(, "accesses_per_iteration": 0.25)"),
                                       stream("v2", 256, 8, 8, "shared")}) +
                        "]");
  ASSERT_EQ(C.targets.size(), 2u);
  EXPECT_EQ(paramsLine(C.targets[0].config), "mbw2hc+e4 1024:64;256:8");
  // One stream without a rate (a hand-edited file): one per iteration.
  EXPECT_EQ(paramsLine(C.targets[1].config), "mbw2hc 1024:64;256:8");
}

// mm re-reads a row of A (1000 accesses) for every column of B, 1000
// executions in a row: its clone walks A in windows of 1000 accesses, each
// CloneRepeats (64) times, then the next. A window spanning half the slice
// or more (nbody's particles, 4096 accesses 56 bytes apart, walked whole by
// every execution) is what a plain walk does: no window. Fewer than 2
// walks: none either.
TEST(Clone, WindowsWalkedAgainAreWalkedAgainByTheClone) {
  CloneSet C = cloneOne(
      "[" +
      phase("mm", {stream("v1", 7812.5, 8, 8, "private",
                          R"(, "window_accesses": 1000, "window_repeats": 1001.7)"),
                   stream("v2", 7812.5, 8000, 8, "shared")}) +
      "," +
      phase("few", {stream("v1", 7812.5, 8, 8, "private",
                           R"(, "window_accesses": 1000, "window_repeats": 5.4)")}) +
      "," +
      phase("whole", {stream("v1", 224, 56, 8, "shared",
                             R"(, "window_accesses": 4096, "window_repeats": 48385)")}) +
      "," +
      phase("once", {stream("v1", 4096, 8, 8, "shared",
                            R"(, "window_accesses": 100, "window_repeats": 1)")}) +
      "]");
  ASSERT_EQ(C.targets.size(), 4u);
  EXPECT_EQ(paramsLine(C.targets[0].config), "mbw2hpc+r64 7812.5:8:1000;7812.5:8000");
  EXPECT_EQ(paramsLine(C.targets[1].config), "mbw1p+r5 7812.5:8:1000");
  EXPECT_EQ(paramsLine(C.targets[2].config), "mbw1c 224:56");
  EXPECT_EQ(paramsLine(C.targets[3].config), "mbw1c 4096:8");
}

// A strided stream whose short executions walk on (a plane of a 3-D
// sweep) is cloned with a column span; one whose executions start at
// random places (RSBench's 9 poles 72 B apart at a random energy) with
// jumping runs of as many accesses.
TEST(Clone, ExecutionsThatJumpAreClonedAsJumpingRuns) {
  CloneSet C = cloneOne(
      "[" +
      phase("rs", {stream("v1", 5052.734375, 72, 8, "shared",
                          R"(, "accesses_per_execution": 9.05, "jump_share": 0.97)")}) +
      "," +
      phase("plane", {stream("v1", 5052.734375, 72, 8, "shared",
                             R"(, "accesses_per_execution": 9.05, "jump_share": 0.01)")}) +
      "," +
      phase("older", {stream("v1", 4096, 72, 8, "shared", R"(, "accesses_per_execution": 9)")}) +
      "]");
  ASSERT_EQ(C.targets.size(), 3u);
  EXPECT_EQ(paramsLine(C.targets[0].config), "mbw1c+j9 5052.734375:72");
  EXPECT_TRUE(C.targets[0].config.jumps);
  EXPECT_EQ(paramsLine(C.targets[1].config), "mbw1c+c9 5052.734375:72");
  EXPECT_EQ(paramsLine(C.targets[2].config), "mbw1c+c9 4096:72") << "no share: in order";
  EXPECT_EQ(C.configs.size(), 3u) << "the same stream, two walks: two configurations";
}

TEST(Clone, AWindowWithoutItsRepeatsIsAnInputError) {
  try {
    cloneOne("[" +
             phase("a", {stream("v1", 1024, 8, 8, "shared", R"(, "window_accesses": 10)")}) +
             "]");
    FAIL() << "no InputError";
  } catch (const InputError &E) {
    EXPECT_NE(std::string(E.what()).find("window_accesses and window_repeats come together"),
              std::string::npos)
        << E.what();
  }
}

// A leaf whose streams all fit in L1d is matched on them under
// --relax-unmatched; its clones are grown like any other's, or the relaxed
// query would find no profile of its size (LULESH's 1 KiB EOS loops).
TEST(Clone, ALeafWithOnlyL1ResidentStreamsIsClonedOnThem) {
  CloneSet C = cloneOne(
      "[" +
      phase("a.c:1:1", {stream("v1", 0.9609375, 8, 8, "private", R"(, "significant": false)"),
                        stream("v2", 2, 8, 8, "private", R"(, "significant": false)")}) +
      "," + phase("a.c:2:1", {stream("v1", 3000, 64, 8, "shared"), stream("v2", 4, 8, 8, "shared")}) +
      "]");
  // a.c:1:1: each stream alone and both together, largest first (123
  // doubles: 62 a thread, 0.96875 KiB); a.c:2:1 has a significant stream,
  // so its L1-resident one stays out. Catalogue order.
  EXPECT_EQ(lines(C), (std::vector<std::string>{"mbw1c 3000:64", "mbw1p 0.96875:8", "mbw1p 2:8",
                                                "mbw2hp 2:8;0.96875:8"}));
  ASSERT_EQ(C.targets.size(), 2u);
  EXPECT_EQ(C.targets[0].phase, "a.c:1:1");
}
