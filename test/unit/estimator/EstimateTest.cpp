//===- EstimateTest.cpp - METHOD.md stage 4 arithmetic and the CI gate ----===//
#include "phaseprobe/error.h"
#include "phaseprobe/estimator.h"
#include "phaseprobe/nppdb.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include <unistd.h>

using namespace phaseprobe;

namespace {

StreamTuple T(double Fp, double Stride, unsigned Elem, Access A) {
  StreamTuple S;
  S.footprintKiB = Fp;
  S.strideBytes = Stride;
  S.elemBytes = Elem;
  S.access = A;
  return S;
}

/// tpi per (node, ubench, threads); streams must match the candidate's.
class MapLookup : public TpiLookup {
public:
  std::map<std::tuple<std::string, std::string, unsigned>, double> Tpi;
  std::optional<double> tpi(const std::string &Node, const std::string &UBench,
                            const std::vector<StreamTuple> &, unsigned Threads) const override {
    auto It = Tpi.find({Node, UBench, Threads});
    if (It == Tpi.end())
      return std::nullopt;
    return It->second;
  }
  std::vector<unsigned> threadCounts(const std::string &Node) const override {
    std::set<unsigned> S;
    for (const auto &[K, V] : Tpi)
      if (std::get<0>(K) == Node)
        S.insert(std::get<2>(K));
    return {S.begin(), S.end()};
  }
  /// Streams are not keyed here: every profile of the node at the count.
  std::vector<std::pair<std::string, double>>
  sameStreams(const std::string &Node, const std::vector<StreamTuple> &,
              unsigned Threads) const override {
    std::vector<std::pair<std::string, double>> Out;
    for (const auto &[K, V] : Tpi)
      if (std::get<0>(K) == Node && std::get<2>(K) == Threads)
        Out.emplace_back(std::get<1>(K), V);
    return Out;
  }
};

Candidate cand(const std::string &Name, double Index) {
  Candidate C;
  C.ubench = Name;
  C.streams = {T(15617, 32000, 8, Access::Shared)};
  C.threads = 4;
  C.score.index = Index;
  return C;
}

/// The MM run of METHOD.md: one matched phase, the rest uncovered.
struct Fixture {
  PhaseFile F;
  std::vector<PhaseMatch> M;
  MapLookup L;
  Fixture() {
    F.program.totalTimeS = 216.0614;
    F.program.threads = 4;
    Phase P;
    P.id = "mm";
    P.threads = 4;
    P.timeS = 212.0254;
    P.iterations = 16000e6;
    P.tpiUs = 0.01325;
    F.phases = {P};
    PhaseMatch PM;
    PM.status = MatchStatus::Matched;
    PM.candidate = cand("mbwXA2hc", 100);
    PM.ranked = {*PM.candidate, cand("mbw1cX", 95)};
    M = {PM};
    L.Tpi = {{{"bn", "mbwXA2hc", 4}, 0.01316},
             {{"tn1", "mbwXA2hc", 4}, 0.01315},
             {{"tn2", "mbwXA2hc", 4}, 0.01148},
             {{"tn3", "mbwXA2hc", 4}, 0.02730}};
  }
};

/// What estimateReportJson needs besides the estimate: the phase's one
/// stream as the candidate's query (the report names its streams).
MatchInputs reportInputs(Fixture &X) {
  PhaseStream S;
  S.id = "v1";
  S.tuple = T(15624, 32000, 8, Access::Shared);
  X.F.phases[0].streams = {S};
  X.M[0].queries.resize(1);
  X.M[0].queries[0].streams = {0};
  MatchInputs In;
  In.phases = X.F;
  In.base = "bn";
  In.config = MatchConfig::defaults();
  return In;
}

const NodeEstimate &node(const Estimate &E, const std::string &N) {
  for (const NodeEstimate &X : E.nodes)
    if (X.node == N)
      return X;
  throw std::runtime_error("no node " + N);
}

} // namespace

TEST(Estimate, WorkedExampleOfMethodMd) {
  Fixture X;
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn1", "tn2", "tn3"}, 0);
  EXPECT_NEAR(node(E, "tn1").phases[0].timeS, 210.4, 1e-9);
  EXPECT_NEAR(node(E, "tn2").phases[0].timeS, 183.68, 1e-9); // 183.7 s
  EXPECT_NEAR(node(E, "tn3").phases[0].timeS, 436.8, 1e-9);
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 210.56, 1e-9);
  // The uncovered part is kept as measured on the base node, on every node.
  EXPECT_NEAR(E.uncoveredS, 216.0614 - 212.0254, 1e-9);
  EXPECT_NEAR(E.coverage, 212.0254 / 216.0614, 1e-12);
  EXPECT_NEAR(node(E, "tn2").timeS, 183.68 + E.uncoveredS, 1e-9);
  // Ranked fastest first, relative to the base node's estimate.
  ASSERT_EQ(E.nodes.size(), 4u); // the base node is always added
  EXPECT_EQ(E.nodes[0].node, "tn2");
  EXPECT_EQ(E.nodes[0].rank, 1u);
  EXPECT_EQ(E.nodes[1].node, "tn1");
  EXPECT_EQ(E.nodes[2].node, "bn");
  EXPECT_EQ(E.nodes[3].node, "tn3");
  EXPECT_DOUBLE_EQ(node(E, "bn").relativeToBase, 1.0);
  EXPECT_NEAR(node(E, "tn2").relativeToBase, (183.68 + 4.036) / (210.56 + 4.036), 1e-9);
  // Self-check: base estimate vs measured base time.
  ASSERT_TRUE(E.selfCheckPercent());
  EXPECT_NEAR(*E.selfCheckPercent(), (214.596 - 216.0614) / 216.0614 * 100, 1e-9);
}

// METHOD.md's instrumentation noise: the plain build's time on the base
// node scales every program estimate, not the ranking, the ratios to the
// base node, the phases' estimates nor the self-check.
TEST(Estimate, PlainBuildTimeScalesTheProgramEstimatesOnly) {
  Fixture X;
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn1", "tn2", "tn3"}, 0);
  Estimate Before = E;
  for (NodeEstimate &N : E.nodes)
    if (N.node == "tn2")
      N.runTimesS = {200.0, 190.0};
  scaleToPlainBuild(E, 216.0614 * 0.9);
  ASSERT_TRUE(E.plainS);
  EXPECT_NEAR(E.plainScale, 0.9, 1e-12);
  for (const char *N : {"bn", "tn1", "tn2", "tn3"}) {
    EXPECT_NEAR(node(E, N).timeS, node(Before, N).timeS * 0.9, 1e-9) << N;
    EXPECT_DOUBLE_EQ(node(E, N).relativeToBase, node(Before, N).relativeToBase) << N;
    EXPECT_EQ(node(E, N).rank, node(Before, N).rank) << N;
    EXPECT_DOUBLE_EQ(node(E, N).phases[0].timeS, node(Before, N).phases[0].timeS) << N;
  }
  EXPECT_NEAR(node(E, "tn2").runTimesS[1], 171.0, 1e-9);
  EXPECT_DOUBLE_EQ(*E.selfCheckPercent(), *Before.selfCheckPercent());
  for (double Bad : {0.0, -1.0, std::nan(""), double(INFINITY)})
    EXPECT_THROW(scaleToPlainBuild(Before, Bad), InputError) << Bad;
  Before.measuredS = 0;
  EXPECT_THROW(scaleToPlainBuild(Before, 1.0), InputError);
}

TEST(Estimate, RatioRuleScalesThePhaseByTheProfilesNodeRatio) {
  Fixture X;
  X.M[0].candidate->tpiUs = 0.01316; // on bn, as the matcher found it
  X.M[0].ranked[0].tpiUs = 0.01316;
  X.M[0].ranked[1].tpiUs = 0.01242;
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn1", "tn2", "tn3"}, ThreadProjection::own(),
                        Projection::Ratio);
  EXPECT_EQ(E.rule, Projection::Ratio);
  double K = 0.01325 / 0.01316; // the phase runs 0.7% slower per iteration than its uB
  EXPECT_NEAR(node(E, "bn").phases[0].calibration, K, 1e-12);
  // The base node gets the phase's own time per iteration back...
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 0.01325 * 16000, 1e-9);
  // ...and every other node the uB's ratio to it: METHOD.md's measured
  // 216.0, 193.9 and 458.9 s are nearer than the absolute 210.4, 183.7, 436.8.
  EXPECT_NEAR(node(E, "tn1").phases[0].timeS, 210.4 * K, 1e-9);
  EXPECT_NEAR(node(E, "tn2").phases[0].timeS, 183.68 * K, 1e-9);
  EXPECT_NEAR(node(E, "tn3").phases[0].timeS, 436.8 * K, 1e-9);
  EXPECT_NEAR(node(E, "tn3").timeS, 436.8 * K + E.uncoveredS, 1e-9);
  // The self-check stays the absolute rule's (the ratio rule would be exact
  // by construction and check nothing).
  ASSERT_TRUE(E.selfCheckPercent());
  EXPECT_NEAR(*E.selfCheckPercent(), (210.56 + 4.036 - 216.0614) / 216.0614 * 100, 1e-9);
  EXPECT_NEAR(node(E, "bn").absoluteS, 210.56 + 4.036, 1e-9);

  // A fallback is calibrated with its own base-node tpi.
  X.L.Tpi = {{{"bn", "mbwXA2hc", 4}, 0.01316}, {{"tn4", "mbw1cX", 4}, 0.02484}};
  E = estimate(X.F, X.M, X.L, "bn", {"tn4"}, ThreadProjection::own(), Projection::Ratio);
  const PhaseEstimate &PE = node(E, "tn4").phases[0];
  EXPECT_EQ(PE.kind, PhaseEstimate::Fallback);
  EXPECT_NEAR(PE.calibration, 0.01325 / 0.01242, 1e-12);
  EXPECT_NEAR(PE.timeS, 2 * 0.01325 * 16000, 1e-9); // twice the phase's base time

  // Under --threads N the calibration is the base-node one at the phase's
  // own thread count, applied to the scaled absolute estimate.
  X.L.Tpi = {{{"bn", "mbwXA2hc", 4}, 0.01316}, {{"bn", "mbwXA2hc", 2}, 0.02}};
  E = estimate(X.F, X.M, X.L, "bn", {}, ThreadProjection::fixed(2), Projection::Ratio);
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 0.02 * 32000 * K, 1e-9);
}

TEST(Estimate, ReportsSayTheRule) {
  Fixture X;
  X.M[0].candidate->tpiUs = X.M[0].ranked[0].tpiUs = 0.01316;
  MatchInputs In = reportInputs(X);
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn1"}, ThreadProjection::own(), Projection::Ratio);
  auto J = estimateReportJson(In, X.M, E);
  EXPECT_EQ(J["projection"], "ratio");
  EXPECT_NEAR(J["phases"][0]["estimates"]["tn1"]["calibration"].get<double>(), 0.01325 / 0.01316,
              1e-9);
  EXPECT_NEAR(J["self_check"]["estimate_s"].get<double>(), 210.56 + 4.036, 1e-9);
  EXPECT_EQ(J["self_check"]["rule"], "absolute");
  E = estimate(X.F, X.M, X.L, "bn", {"tn1"}, ThreadProjection::own());
  J = estimateReportJson(In, X.M, E);
  EXPECT_EQ(J["projection"], "absolute");
  EXPECT_FALSE(J["phases"][0]["estimates"]["tn1"].contains("calibration"));
  EXPECT_EQ(parseProjection("ratio"), Projection::Ratio);
  EXPECT_EQ(parseProjection("absolute"), Projection::Absolute);
  EXPECT_FALSE(parseProjection("relative"));
}

TEST(Estimate, FallbackToTheNextRankedProfileAndMissing) {
  Fixture X;
  X.L.Tpi[{"tn4", "mbw1cX", 4}] = 0.02; // tn4 lacks the candidate
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn4", "tn5"}, 0);
  const NodeEstimate &N4 = node(E, "tn4");
  EXPECT_EQ(N4.phases[0].kind, PhaseEstimate::Fallback);
  EXPECT_EQ(N4.phases[0].rank, 1u);
  EXPECT_NEAR(N4.phases[0].timeS, 320, 1e-9);
  EXPECT_EQ(N4.fallbacks, 1u);
  const NodeEstimate &N5 = node(E, "tn5"); // has none of the ranked profiles
  EXPECT_EQ(N5.phases[0].kind, PhaseEstimate::Missing);
  EXPECT_DOUBLE_EQ(N5.phases[0].timeS, 212.0254);
  EXPECT_EQ(N5.missing, 1u);
  EXPECT_DOUBLE_EQ(N5.timeS, 216.0614);
}

TEST(Estimate, ThreadProjectionScalesIterationsAndSkipsTheSelfCheck) {
  Fixture X;
  X.L.Tpi[{"bn", "mbwXA2hc", 8}] = 0.012;
  X.L.Tpi[{"tn1", "mbwXA2hc", 8}] = 0.010;
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn1"}, 8);
  // 4 -> 8 threads: each thread runs half the iterations.
  EXPECT_DOUBLE_EQ(node(E, "tn1").phases[0].iterations, 8000e6);
  EXPECT_NEAR(node(E, "tn1").phases[0].timeS, 80.0, 1e-9);
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 96.0, 1e-9);
  EXPECT_FALSE(E.selfCheckPercent().has_value());
}

TEST(Estimate, NativeProjectsEachNodeOntoItsOwnThreadCount) {
  Fixture X;                               // the phase ran at 4 threads on bn
  X.L.Tpi[{"bn", "mbwXA2hc", 8}] = 0.001;  // never used: bn stays at the phase's 4
  X.L.Tpi[{"one", "mbwXA2hc", 1}] = 0.004; // characterized at 1 thread only
  X.L.Tpi[{"big", "mbwXA2hc", 2}] = 0.009; // 2 and 16, not 4: its largest, 16
  X.L.Tpi[{"big", "mbwXA2hc", 16}] = 0.05;
  X.L.Tpi[{"four", "mbwXA2hc", 4}] = 0.012;  // has the phase's own: kept
  X.L.Tpi[{"four", "mbwXA2hc", 16}] = 0.001; // (a larger one does not win)
  Estimate E =
      estimate(X.F, X.M, X.L, "bn", {"one", "big", "four", "tn1"}, ThreadProjection::native());
  EXPECT_EQ(E.projection.mode, ThreadProjection::Native);
  EXPECT_EQ(E.threads, 0u);
  const PhaseEstimate &One = node(E, "one").phases[0];
  EXPECT_EQ(One.threads, 1u);
  EXPECT_DOUBLE_EQ(One.iterations, 64000e6); // 16000e6 x 4 / 1
  EXPECT_NEAR(One.timeS, 256.0, 1e-9);       // 0.004 us x 64000e6
  const PhaseEstimate &Big = node(E, "big").phases[0];
  EXPECT_EQ(Big.threads, 16u);
  EXPECT_DOUBLE_EQ(Big.iterations, 4000e6);
  EXPECT_NEAR(Big.timeS, 200.0, 1e-9);
  EXPECT_EQ(node(E, "four").phases[0].threads, 4u);
  EXPECT_NEAR(node(E, "four").phases[0].timeS, 192.0, 1e-9);
  EXPECT_EQ(node(E, "tn1").phases[0].threads, 4u);
  EXPECT_NEAR(node(E, "tn1").phases[0].timeS, 210.4, 1e-9);
  // The base node keeps the phase's thread count: the self-check holds.
  EXPECT_EQ(node(E, "bn").phases[0].threads, 4u);
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 210.56, 1e-9);
  ASSERT_TRUE(E.selfCheckPercent());
  EXPECT_NEAR(*E.selfCheckPercent(), (214.596 - 216.0614) / 216.0614 * 100, 1e-9);
  // One ranking over all thread counts, relative to the base estimate.
  std::vector<std::string> Order;
  for (const NodeEstimate &N : E.nodes)
    Order.push_back(N.node);
  EXPECT_EQ(Order, (std::vector<std::string>{"four", "big", "tn1", "bn", "one"}));
  double Unc = 216.0614 - 212.0254;
  EXPECT_NEAR(node(E, "big").relativeToBase, (200 + Unc) / (210.56 + Unc), 1e-12);
  EXPECT_NEAR(node(E, "one").relativeToBase, (256 + Unc) / (210.56 + Unc), 1e-12);
  EXPECT_EQ(node(E, "big").threads, (std::vector<unsigned>{16}));
  EXPECT_EQ(formatThreadList(node(E, "one").threads), "1");
}

TEST(Estimate, NativeChoosesPerNodeNotPerProfile) {
  Fixture X;
  // "fb" has 4-thread profiles but not the candidate, and the candidate at
  // 8: it stays at the phase's 4 and falls back there.
  X.L.Tpi[{"fb", "mbw1cX", 4}] = 0.02;
  X.L.Tpi[{"fb", "mbwXA2hc", 8}] = 0.001;
  // "none" has profiles at 2 threads, none of them ranked: missing, and the
  // estimate says at which count it looked.
  X.L.Tpi[{"none", "other", 2}] = 0.001;
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"fb", "none"}, ThreadProjection::native());
  const PhaseEstimate &Fb = node(E, "fb").phases[0];
  EXPECT_EQ(Fb.kind, PhaseEstimate::Fallback);
  EXPECT_EQ(Fb.threads, 4u);
  EXPECT_NEAR(Fb.timeS, 320, 1e-9);
  const PhaseEstimate &None = node(E, "none").phases[0];
  EXPECT_EQ(None.kind, PhaseEstimate::Missing);
  EXPECT_EQ(None.threads, 2u);
  EXPECT_DOUBLE_EQ(None.timeS, 212.0254);
}

TEST(Estimate, PhasesOfDifferentThreadCountsListBothOnTheNode) {
  Fixture X;
  Phase Q = X.F.phases[0];
  Q.id = "serialish";
  Q.threads = 1;
  Q.timeS = 1;
  Q.iterations = 1e6;
  X.F.phases.push_back(Q);
  PhaseMatch QM = X.M[0];
  QM.phaseIndex = 1;
  X.M.push_back(QM);
  X.L.Tpi[{"bn", "mbwXA2hc", 1}] = 0.5;
  X.L.Tpi[{"mix", "mbwXA2hc", 1}] = 0.25; // has 1 (the second phase's) and 2
  X.L.Tpi[{"mix", "mbwXA2hc", 2}] = 0.02; // the first phase (4) goes to 2
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"mix"}, ThreadProjection::native());
  const NodeEstimate &Mix = node(E, "mix");
  EXPECT_EQ(Mix.threads, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(Mix.phases[0].threads, 2u);
  EXPECT_NEAR(Mix.phases[0].timeS, 0.02 * 32000e6 * 1e-6, 1e-9);
  EXPECT_EQ(Mix.phases[1].threads, 1u);
  EXPECT_NEAR(Mix.phases[1].timeS, 0.25, 1e-12);
  EXPECT_EQ(node(E, "bn").threads, (std::vector<unsigned>{1, 4}));
  EXPECT_EQ(formatThreadList(Mix.threads), "1,2");
}

TEST(Estimate, ReportsSayTheThreadCountOfEveryNode) {
  Fixture X;
  X.L.Tpi[{"one", "mbwXA2hc", 1}] = 0.004;
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"one"}, ThreadProjection::native());
  std::string Csv = estimateCsv(X.F, X.M, E);
  EXPECT_EQ(Csv.substr(0, Csv.find('\n')),
            "node,rank,relative_to_base,phase,time_s,tpi_us,iterations,ubench,streams,status,"
            "threads");
  EXPECT_NE(Csv.find("\nbn,1,1,mm,210.56,0.01316,16000000000,mbwXA2hc,15617:32000:8:shared,"
                     "chosen,4\n"),
            std::string::npos)
      << Csv;
  EXPECT_NE(Csv.find(",mm,256,0.004,64000000000,mbwXA2hc,15617:32000:8:shared,chosen,1\n"),
            std::string::npos)
      << Csv;
  EXPECT_NE(Csv.find(",(program),260.036,,,,,estimate,1\n"), std::string::npos) << Csv;
  EXPECT_NE(Csv.find(",(uncovered),4.036,,,,,measured on base,\n"), std::string::npos) << Csv;
}

TEST(Estimate, UnmatchedPhasesAreUncovered) {
  Fixture X;
  Phase Q = X.F.phases[0];
  Q.id = "other";
  Q.timeS = 2;
  X.F.phases.push_back(Q);
  PhaseMatch U;
  U.phaseIndex = 1;
  U.status = MatchStatus::NoProfile;
  X.M.push_back(U);
  Estimate E = estimate(X.F, X.M, X.L, "bn", {}, 0);
  EXPECT_EQ(node(E, "bn").phases.size(), 1u);
  EXPECT_NEAR(E.uncoveredS, 216.0614 - 212.0254, 1e-9); // "other" is in there
}

namespace {

nlohmann::ordered_json doc(double Tn1, const std::string &Cand = "mbwXA2hc") {
  nlohmann::ordered_json J;
  J["schema"] = "phaseprobe.estimate/1";
  J["phases"] = {{{"id", "mm"},
                  {"candidate", {{"ubench", Cand}, {"streams", "1:1:8:shared"}}},
                  {"estimates", {{"tn1", {{"time_s", Tn1}, {"status", "chosen"}}}}}}};
  J["nodes"] = {{{"node", "tn1"}, {"time_s", Tn1 + 4}}};
  J["uncovered"] = {{"time_s", 4}};
  return J;
}

} // namespace

namespace {

/// Profiles by exact stream footprint, with family(): what barrier pricing
/// reads (bar1p and its mbw1p twins).
class ProfileLookup : public TpiLookup {
public:
  struct Row {
    std::string node, ubench;
    unsigned threads;
    double footprintKiB, tpiUs;
  };
  std::vector<Row> Rows;
  std::map<std::string, std::string> Cpu; ///< design per node; none: unknown
  static StreamTuple unit(double K) { return T(K, 8, 8, Access::Private); }
  std::string cpuDesign(const std::string &Node) const override {
    auto It = Cpu.find(Node);
    return It == Cpu.end() ? "" : It->second;
  }
  std::vector<std::string> nodes() const override {
    std::set<std::string> S;
    for (const Row &R : Rows)
      S.insert(R.node);
    return {S.begin(), S.end()};
  }
  std::optional<double> tpi(const std::string &Node, const std::string &UBench,
                            const std::vector<StreamTuple> &S, unsigned Threads) const override {
    for (const Row &R : Rows)
      if (R.node == Node && R.ubench == UBench && R.threads == Threads && S.size() == 1 &&
          S[0].footprintKiB == R.footprintKiB)
        return R.tpiUs;
    return std::nullopt;
  }
  std::vector<unsigned> threadCounts(const std::string &Node) const override {
    std::set<unsigned> S;
    for (const Row &R : Rows)
      if (R.node == Node)
        S.insert(R.threads);
    return {S.begin(), S.end()};
  }
  std::vector<std::pair<StreamTuple, double>> family(const std::string &Node,
                                                     const std::string &UBench,
                                                     unsigned Threads) const override {
    std::vector<std::pair<StreamTuple, double>> Out;
    for (const Row &R : Rows)
      if (R.node == Node && R.ubench == UBench && R.threads == Threads)
        Out.emplace_back(unit(R.footprintKiB), R.tpiUs);
    return Out;
  }
  /// bar1p and mbw1p at \p K KiB: the barrier costs \p CostUs per sweep of
  /// one thread's slice (K KiB / 8 B / threads iterations).
  void pair(const std::string &Node, unsigned Th, double K, double MbwTpi, double CostUs,
            const char *Sync = "bar1p") {
    double Iters = K * 1024 / 8 / Th;
    if (!tpi(Node, "mbw1p", {unit(K)}, Th))
      Rows.push_back({Node, "mbw1p", Th, K, MbwTpi});
    Rows.push_back({Node, Sync, Th, K, MbwTpi + CostUs / Iters});
  }
};

/// One region with 1000 barriers, 40 us of work between them (base "bn",
/// 2 threads), no matched phase: only the synchronization term moves.
PhaseFile syncFile() {
  PhaseFile F;
  F.program.totalTimeS = 0.05;
  F.program.threads = 2;
  Phase R;
  R.id = "r.c:1:1";
  R.kind = "parallel";
  R.threads = 2;
  R.timeS = 0.04;
  R.iterations = 1e6;
  R.tpiUs = 0.04;
  R.invocations = 100;
  R.barriers = 1000;
  F.phases = {R};
  return F;
}

} // namespace

TEST(Sync, BarrierCostIsTheBarrierLoopMinusItsTwinPerSweep) {
  ProfileLookup L;
  L.pair("n", 2, 16, 0.002, 38);
  EXPECT_NEAR(*syncCostUs(SyncKind::Barrier, L, "n", 2, 16.0), 38, 1e-9);
  EXPECT_NEAR(*syncCostUs(SyncKind::Barrier, L, "n", 2, 16.4), 38, 1e-9) << "within 5%: the kernel rounds";
  EXPECT_FALSE(syncCostUs(SyncKind::Barrier, L, "n", 2, 32.0));
  EXPECT_FALSE(syncCostUs(SyncKind::Barrier, L, "n", 1, 16.0));
  // A barrier loop measured faster than its twin (noise) costs nothing.
  L.pair("m", 2, 16, 0.002, -5);
  EXPECT_EQ(*syncCostUs(SyncKind::Barrier, L, "m", 2, 16.0), 0);
}

// SyncSweeps::Short: every sweep up to 100 us, weighted by 1 / sweep
// time^2, so a noisy long sweep (here a barrier "cheaper" by 6 us at 64 us
// of work, as one round measured on the lent Xeon) barely moves the cost the
// short sweeps give; above 100 us nothing counts; never negative.
TEST(Sync, ShortSweepsDecideTheCost) {
  ProfileLookup L;
  // 16 KiB at 2 threads: 1024 iterations x 0.001 us = 1.024 us a sweep.
  L.pair("n", 2, 16, 0.001, 1.5);
  L.pair("n", 2, 1024, 0.001, -6.0);  // 65.5 us a sweep
  L.pair("n", 2, 4096, 0.001, 400.0); // 262 us: left out
  double W1 = 1 / (1.024 * 1.024), W2 = 1 / (65.536 * 65.536);
  EXPECT_NEAR(*syncCostShortUs(SyncKind::Barrier, L, "n", 2), (W1 * 1.5 - W2 * 6.0) / (W1 + W2),
              1e-9);
  EXPECT_FALSE(syncCostShortUs(SyncKind::Barrier, L, "n", 1));
  L.pair("m", 2, 16, 0.001, -0.5);
  EXPECT_EQ(*syncCostShortUs(SyncKind::Barrier, L, "m", 2), 0);
  EXPECT_EQ(parseSyncSweeps("short"), std::optional<SyncSweeps>(SyncSweeps::Short));
  EXPECT_FALSE(parseSyncSweeps("long"));
}

TEST(Sync, TheBaseNodeChoosesWhereTheWorkBetweenBarriersFalls) {
  ProfileLookup L;
  // mbw1p sweeps on the base: 16 KiB -> 1024 iterations x 0.01 us = 10.24 us;
  // 64 KiB -> 4096 x 0.01 = 40.96 us; 1024 KiB -> 655.36 us (over 100 us).
  L.pair("bn", 2, 16, 0.01, 1);
  L.pair("bn", 2, 64, 0.01, 3);
  L.pair("bn", 2, 1024, 0.01, 500);
  L.pair("tn", 2, 16, 0.02, 40);
  L.pair("tn", 2, 64, 0.02, 80);
  auto P = syncPoint(SyncKind::Barrier, L, "bn", 2, std::sqrt(10.24 * 40.96)); // halfway in log
  ASSERT_TRUE(P);
  EXPECT_EQ(P->loKiB, 16);
  EXPECT_EQ(P->hiKiB, 64);
  EXPECT_NEAR(P->weight, 0.5, 1e-9);
  EXPECT_NEAR(*syncCostUs(SyncKind::Barrier, L, "bn", 2, *P), 2, 1e-9);
  EXPECT_NEAR(*syncCostUs(SyncKind::Barrier, L, "tn", 2, *P), 60, 1e-9) << "the base node's weights";
  // Outside the measured range: the nearest end.
  EXPECT_EQ(syncPoint(SyncKind::Barrier, L, "bn", 2, 1)->loKiB, 16);
  EXPECT_EQ(syncPoint(SyncKind::Barrier, L, "bn", 2, 1)->weight, 0);
  EXPECT_EQ(syncPoint(SyncKind::Barrier, L, "bn", 2, 1e6)->loKiB, 64);
  EXPECT_FALSE(syncPoint(SyncKind::Barrier, L, "bn", 4, 100));
  EXPECT_FALSE(syncPoint(SyncKind::Barrier, L, "bn", 2, 0));
  // Sweeps over 100 us (1024 KiB: 655 us) are noise, not a cost: an
  // interval of 10 ms uses the 64 KiB one, not the 1024 KiB one.
  EXPECT_EQ(syncPoint(SyncKind::Barrier, L, "bn", 2, 1e4)->loKiB, 64);
  EXPECT_EQ(syncPoint(SyncKind::Barrier, L, "bn", 2, 1e4)->weight, 0);
}

TEST(Sync, EachNodeGetsBarriersTimesItsCostMinusTheBases) {
  PhaseFile F = syncFile();
  ProfileLookup L;
  for (double K : {16.0, 64.0}) {
    L.pair("bn", 2, K, 0.01, 1);
    L.pair("shared-core", 2, K, 0.02, 41);
    L.pair("fast", 2, K, 0.01, 0.5);
  }
  L.pair("half", 2, 16, 0.01, 1); // lacks the 64 KiB pair
  Estimate E = estimate(F, {}, L, "bn", {"shared-core", "fast", "half"}, ThreadProjection::own());
  EXPECT_EQ(E.barriers, 1000);
  EXPECT_EQ(node(E, "bn").syncS, 0);
  EXPECT_NEAR(node(E, "bn").barrierCostUs, 1, 1e-9);
  EXPECT_NEAR(node(E, "shared-core").syncS, 1000 * 40e-6, 1e-12);
  EXPECT_NEAR(node(E, "shared-core").timeS, 0.05 + 0.04, 1e-12);
  EXPECT_NEAR(node(E, "shared-core").absoluteS, 0.05 + 0.04, 1e-12);
  EXPECT_NEAR(node(E, "fast").syncS, -1000 * 0.5e-6, 1e-12) << "cheaper barriers save time";
  EXPECT_EQ(node(E, "half").syncS, 0);
  EXPECT_EQ(node(E, "half").syncUnpriced, 1u);
  EXPECT_EQ(E.nodes.back().node, "shared-core");
  // The rule off, or a file without barrier counts: METHOD.md's estimate.
  Estimate Off = estimate(F, {}, L, "bn", {"shared-core"}, ThreadProjection::own(),
                          Projection::Absolute, SyncRule::Off);
  EXPECT_EQ(node(Off, "shared-core").syncS, 0);
  EXPECT_EQ(Off.barriers, 1000) << "still counted, for the report";
  F.phases[0].barriers.reset();
  EXPECT_EQ(node(estimate(F, {}, L, "bn", {"shared-core"}, ThreadProjection::own()), "shared-core")
                .syncS,
            0);
  // A nested region's barriers are already its outer region's.
  F = syncFile();
  F.phases.push_back(F.phases[0]);
  F.phases[1].id = "r.c:2:1";
  F.phases[1].parent = "r.c:1:1";
  EXPECT_EQ(estimate(F, {}, L, "bn", {"shared-core"}, ThreadProjection::own()).barriers, 1000);
}

TEST(Sync, CheaperBarriersTakeAtMostTheRegionsTime) {
  PhaseFile F = syncFile();
  ProfileLookup L;
  L.pair("bn", 2, 16, 0.01, 1000); // 1000 barriers x 1 ms > the region's 40 ms
  L.pair("tn", 2, 16, 0.01, 0);
  Estimate E = estimate(F, {}, L, "bn", {"tn"}, ThreadProjection::own());
  EXPECT_NEAR(node(E, "tn").syncS, -0.04, 1e-12);
}

TEST(Sync, ANodeAtAnotherThreadCountIsPricedThere) {
  PhaseFile F = syncFile();
  ProfileLookup L;
  L.pair("bn", 2, 16, 0.01, 1);
  L.pair("one", 1, 16, 0.01, 0.1);
  Estimate E = estimate(F, {}, L, "bn", {"one"}, ThreadProjection::native());
  EXPECT_NEAR(node(E, "one").syncS, 1000 * (0.1 - 1) * 1e-6, 1e-12);
}

// A pipeline whose threads spin on flags (NPB LU): its spin-wait rounds are
// priced with spin1p, apart from its barriers (bar1p), each at the node's
// cost minus the base's; a round on a shared core is a time slice.
TEST(Sync, SpinWaitRoundsArePricedWithSpin1p) {
  PhaseFile F = syncFile();
  F.phases[0].spinRounds = 200; // 200 us of work between rounds
  ProfileLookup L;
  for (double K : {16.0, 64.0}) {
    L.pair("bn", 2, K, 0.01, 1);
    L.pair("bn", 2, K, 0.01, 0.2, "spin1p");
    L.pair("shared-core", 2, K, 0.02, 41);
    L.pair("shared-core", 2, K, 0.02, 8000, "spin1p");
  }
  L.pair("nospin", 2, 16, 0.01, 1);
  L.pair("nospin", 2, 64, 0.01, 1);
  EXPECT_NEAR(*syncCostUs(SyncKind::SpinWait, L, "shared-core", 2, 16.0), 8000, 1e-6);
  Estimate E = estimate(F, {}, L, "bn", {"shared-core", "nospin"}, ThreadProjection::own());
  EXPECT_EQ(E.barriers, 1000);
  EXPECT_EQ(E.spinRounds, 200);
  EXPECT_NEAR(node(E, "shared-core").syncS, 1000 * 40e-6 + 200 * (8000 - 0.2) * 1e-6, 1e-9);
  EXPECT_NEAR(node(E, "shared-core").spinCostUs, 8000, 1e-6);
  EXPECT_NEAR(node(E, "shared-core").barrierCostUs, 41, 1e-9);
  EXPECT_EQ(node(E, "shared-core").syncUnpriced, 0u);
  // A node without spin1p keeps the rounds in the measured time.
  EXPECT_EQ(node(E, "nospin").syncS, 0);
  EXPECT_EQ(node(E, "nospin").syncUnpriced, 1u);
  std::string Csv = estimateCsv(F, {}, E);
  EXPECT_NE(Csv.find(",,,,,barriers and spin-wait rounds,"), std::string::npos) << Csv;
  // Off: METHOD.md's estimate, the rounds still counted for the report.
  Estimate Off = estimate(F, {}, L, "bn", {"shared-core"}, ThreadProjection::own(),
                          Projection::Absolute, SyncRule::Off);
  EXPECT_EQ(node(Off, "shared-core").syncS, 0);
  EXPECT_EQ(Off.spinRounds, 200);
}

TEST(Sync, ReportsCarryTheTerm) {
  PhaseFile F = syncFile();
  ProfileLookup L;
  L.pair("bn", 2, 16, 0.01, 1);
  L.pair("tn", 2, 16, 0.01, 11);
  Estimate E = estimate(F, {}, L, "bn", {"tn"}, ThreadProjection::own());
  std::string Csv = estimateCsv(F, {}, E);
  EXPECT_NE(Csv.find("tn,2,"), std::string::npos);
  EXPECT_NE(Csv.find(",(synchronization),0.01,,,,,barriers,"), std::string::npos) << Csv;
}

namespace {

/// Phase \p Index matched to the uB "k" (one 256 KiB stream, 2 threads),
/// whose tpi on the base node is \p BaseTpiUs.
PhaseMatch matchedOnK(size_t Index, double BaseTpiUs) {
  Candidate C;
  C.ubench = "k";
  C.streams = {ProfileLookup::unit(256)};
  C.threads = 2;
  C.tpiUs = BaseTpiUs;
  PhaseMatch PM;
  PM.phaseIndex = Index;
  PM.status = MatchStatus::Matched;
  PM.candidate = C;
  PM.ranked = {C};
  return PM;
}

/// Nodes "bn" and "tn" at 2 threads: "k" runs 2x slower on tn, a barrier
/// costs 1 us on bn and 41 us on tn.
void twoNodes(ProfileLookup &L, double BaseTpiUs) {
  L.Rows.push_back({"bn", "k", 2, 256, BaseTpiUs});
  L.Rows.push_back({"tn", "k", 2, 256, 2 * BaseTpiUs});
  L.pair("bn", 2, 16, 0.01, 1);
  L.pair("tn", 2, 16, 0.01, 41);
}

/// 10 s: 1 s serial; region r (8 s, 1000 barriers) with a matched leaf a
/// (4 s, 4e6 iterations of 1 us) and an unmatched leaf b (3 s); region q
/// (1 s) with nothing matched. On "tn" a's uB runs 2x slower and a barrier
/// costs 41 us instead of 1.
struct Uncovered {
  PhaseFile F;
  std::vector<PhaseMatch> M;
  ProfileLookup L;
  explicit Uncovered(double BaseTpiUs) {
    F.program.totalTimeS = 10;
    F.program.threads = 2;
    auto Ph = [](const std::string &Id, std::optional<std::string> Parent, double S) {
      Phase P;
      P.id = Id;
      P.kind = Parent ? "for" : "parallel";
      P.parent = Parent;
      P.threads = 2;
      P.timeS = S;
      P.iterations = S * 1e6;
      P.tpiUs = 1;
      return P;
    };
    F.phases = {Ph("r", {}, 8), Ph("a", "r", 4), Ph("b", "r", 3), Ph("q", {}, 1)};
    F.phases[0].barriers = 1000;
    PhaseMatch U;
    U.phaseIndex = 2;
    U.status = MatchStatus::NoProfile;
    M = {matchedOnK(1, BaseTpiUs), U};
    twoNodes(L, BaseTpiUs);
  }
  /// A node without \p UBench's profiles (a pricing uB it was never
  /// characterized with).
  void dropProfiles(const std::string &Node, const std::string &UBench) {
    L.Rows.erase(std::remove_if(L.Rows.begin(), L.Rows.end(),
                                [&](const ProfileLookup::Row &R) {
                                  return R.node == Node && R.ubench == UBench;
                                }),
                 L.Rows.end());
  }
};

} // namespace

TEST(UncoveredRule, KeptIsTheBaseRunsTimeOnEveryNode) {
  Uncovered X(1);
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own());
  EXPECT_EQ(E.uncovered, UncoveredRule::Kept);
  EXPECT_NEAR(E.uncoveredS, 6, 1e-12);
  EXPECT_NEAR(node(E, "tn").uncoveredS, 6, 1e-12);
  EXPECT_NEAR(node(E, "tn").timeS, 8 + 6 + 0.04, 1e-9);
}

TEST(UncoveredRule, ScaledFollowsTheRegionsMatchedPhasesBarriersApart) {
  for (Projection Rule : {Projection::Absolute, Projection::Ratio}) {
    // Under the ratio rule a uB twice as fast as the phase on the base node
    // gives the same node-to-base ratio and the same answer.
    Uncovered X(Rule == Projection::Ratio ? 0.5 : 1);
    Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(), Rule,
                          SyncRule::Barriers, UncoveredRule::Scaled);
    EXPECT_NEAR(E.serialS, 1, 1e-12);
    EXPECT_NEAR(E.inRegionsS, 4 + 1, 1e-12) << "r's b and its time between leaves, and q";
    EXPECT_NEAR(node(E, "bn").uncoveredS, 6, 1e-9) << "the base node keeps its measurement";
    EXPECT_NEAR(node(E, "bn").timeS, 10, 1e-9);
    // r's 4 s less its 1000 barriers at 1 us follow a (x2); serial code and q
    // (nothing matched inside) stay; the barriers are the sync term's.
    EXPECT_NEAR(node(E, "tn").uncoveredS, 1 + 1 + 0.001 + 3.999 * 2, 1e-9);
    EXPECT_NEAR(node(E, "tn").syncS, 0.04, 1e-9);
    EXPECT_NEAR(node(E, "tn").timeS, 8 + 9.999 + 0.04, 1e-9);
    std::string Csv = estimateCsv(X.F, X.M, E);
    EXPECT_NE(Csv.find(",(uncovered),9.999,,,,,scaled,\n"), std::string::npos) << Csv;
  }
  // Without priced barriers they are part of what is scaled.
  Uncovered X(1);
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(),
                        Projection::Absolute, SyncRule::Off, UncoveredRule::Scaled);
  EXPECT_NEAR(node(E, "tn").uncoveredS, 1 + 1 + 4 * 2, 1e-9);
}

// Page faults: region r's 10^6 faults cost 1 s on bn (pf1p: 2 us a fault
// per thread, a team of 2). They sat in r's matched leaf a, which tn runs
// 2x slower, so the projection made them 2 s there: that comes out and tn's
// own fault time goes in. q's faults, in a region with nothing matched, were
// kept: only the cost difference moves.
TEST(Faults, TheBaseFaultTimeLeavesTheProjectionAndTheNodesComesIn) {
  for (double TnTpi : {2.0, 6.0}) {
    Uncovered X(1);
    X.F.phases[0].pageFaults = 1000000;
    X.F.phases[3].pageFaults = 100000;
    X.L.Rows.push_back({"bn", "pf1p", 2, 4096, 2.0});
    X.L.Rows.push_back({"tn", "pf1p", 2, 4096, TnTpi});
    Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own());
    EXPECT_NEAR(E.pageFaults, 1100000, 1e-9);
    EXPECT_NEAR(E.faultBaseCostUs, 1.0, 1e-12);
    const NodeEstimate &Tn = node(E, "tn");
    double Own = 1.1 * TnTpi / 2; // seconds: 1.1e6 faults at TnTpi / 2 us
    EXPECT_NEAR(Tn.faultS, Own - (2 * 1.0 + 0.1), 1e-9);
    EXPECT_NEAR(Tn.faultCostUs, TnTpi / 2, 1e-12);
    EXPECT_NEAR(Tn.syncS, 0.04 + Tn.faultS, 1e-9) << "part of the priced term";
    EXPECT_NEAR(Tn.timeS, 8 + 6 + 0.04 + Tn.faultS, 1e-9);
    EXPECT_NEAR(node(E, "bn").faultS, 0, 1e-12);
    EXPECT_NEAR(node(E, "bn").timeS, 10, 1e-9);
  }
  // --sync off: METHOD.md's estimate, faults inside the measured times.
  Uncovered X(1);
  X.F.phases[0].pageFaults = 1000000;
  X.L.Rows.push_back({"bn", "pf1p", 2, 4096, 2.0});
  X.L.Rows.push_back({"tn", "pf1p", 2, 4096, 6.0});
  Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(), Projection::Absolute,
                        SyncRule::Off);
  EXPECT_NEAR(node(E, "tn").faultS, 0, 1e-12);
  EXPECT_NEAR(node(E, "tn").timeS, 8 + 6, 1e-9);
  // A node without pf1p keeps them (and says so).
  Uncovered Y(1);
  Y.F.phases[0].pageFaults = 1000000;
  Y.L.Rows.push_back({"bn", "pf1p", 2, 4096, 2.0});
  Estimate F = estimate(Y.F, Y.M, Y.L, "bn", {"tn"}, ThreadProjection::own());
  EXPECT_NEAR(node(F, "tn").faultS, 0, 1e-12);
  EXPECT_EQ(node(F, "tn").syncUnpriced, 1u);
}

// Give-backs: the pages of r's 10^6 and q's 10^5 faults go back to the
// system in the serial code between forks: gb1p 0.4 us a page per thread on
// bn (0.2 for a team of 2), 0.1 on tn (0.05). tn's serial code is 1.1e6 x
// 0.15 us = 0.165 s cheaper, in no region's part; it can at most lose the
// serial code's time; a node without gb1p keeps the base run's.
TEST(Faults, ThePagesGiveBacksArePricedInTheSerialCode) {
  auto Run = [](double BnTpi, bool TnHasIt) {
    Uncovered X(1);
    X.F.phases[0].pageFaults = 1000000;
    X.F.phases[3].pageFaults = 100000;
    X.L.Rows.push_back({"bn", "pf1p", 2, 4096, 2.0});
    X.L.Rows.push_back({"tn", "pf1p", 2, 4096, 2.0});
    X.L.Rows.push_back({"bn", "gb1p", 2, 4096, BnTpi});
    if (TnHasIt)
      X.L.Rows.push_back({"tn", "gb1p", 2, 4096, 0.1});
    return estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own());
  };
  Estimate E = Run(0.4, true);
  EXPECT_NEAR(E.giveBackBaseCostUs, 0.2, 1e-12);
  const NodeEstimate &Tn = node(E, "tn");
  EXPECT_NEAR(Tn.giveBackS, -0.165, 1e-9);
  EXPECT_NEAR(Tn.giveBackCostUs, 0.05, 1e-12);
  double Regions = 0;
  for (const RegionEstimate &R : Tn.regions)
    Regions += R.timeS();
  EXPECT_NEAR(Tn.timeS - Regions - E.serialS, -0.165, 1e-9) << "the serial code pays it";
  EXPECT_NEAR(Tn.syncS, 0.04 + Tn.faultS - 0.165, 1e-9);
  EXPECT_NEAR(node(E, "bn").giveBackS, 0, 1e-12);
  EXPECT_NEAR(node(E, "bn").timeS, 10, 1e-9);
  // 20 us a page on bn: 22 s of give-backs in a serial second.
  EXPECT_NEAR(node(Run(40, true), "tn").giveBackS, -1, 1e-9);
  EXPECT_NEAR(node(Run(0.4, false), "tn").giveBackS, 0, 1e-12);
  EXPECT_EQ(node(Run(0.4, false), "tn").syncUnpriced, 0u);
}

// Serial page faults: the run counted 1.15e6 faults, its regions 1.1e6, so
// 50000 are the serial code's. A thread faulting alone takes 10 us on bn's
// design (pf1p at one thread on bn1, its one-thread configuration: bn has
// none) and 1 us on tn's (tn1): on tn the serial code is 0.45 s shorter.
// tn2, of bn's design, keeps them in the serial time; so does --sync off.
TEST(Faults, SerialFaultsArePricedAcrossDesignsAtALoneThreadsCost) {
  auto Run = [](bool Tn1, double SerialFaults, SyncRule Sync) {
    Uncovered X(1);
    X.F.phases[0].pageFaults = 1000000;
    X.F.phases[3].pageFaults = 100000;
    X.F.program.pageFaults = std::uint64_t(1100000 + SerialFaults);
    X.L.Rows.push_back({"bn", "pf1p", 2, 4096, 12.0});
    X.L.Rows.push_back({"bn1", "pf1p", 1, 4096, 10.0});
    X.L.Rows.push_back({"tn", "pf1p", 2, 4096, 1.6});
    X.L.Rows.push_back({"tn2", "pf1p", 2, 4096, 12.0});
    if (Tn1)
      X.L.Rows.push_back({"tn1", "pf1p", 1, 4096, 1.0});
    X.L.Cpu = {{"bn", "A"}, {"bn1", "A"}, {"tn2", "A"}, {"tn", "B"}, {"tn1", "B"}};
    Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn", "tn2"}, ThreadProjection::own(),
                          Projection::Absolute, Sync);
    X.F.program.pageFaults.reset();
    Estimate Without = estimate(X.F, X.M, X.L, "bn", {"tn", "tn2"}, ThreadProjection::own(),
                                Projection::Absolute, Sync);
    return std::make_pair(E, Without);
  };
  auto [E, Without] = Run(true, 50000, SyncRule::Barriers);
  EXPECT_NEAR(E.serialPageFaults, 50000, 1e-9);
  EXPECT_NEAR(E.serialFaultBaseCostUs, 10, 1e-12);
  const NodeEstimate &Tn = node(E, "tn");
  EXPECT_NEAR(Tn.serialFaultS, -0.45, 1e-9);
  EXPECT_NEAR(Tn.serialFaultCostUs, 1, 1e-12);
  EXPECT_NEAR(Tn.timeS - node(Without, "tn").timeS, -0.45, 1e-9);
  EXPECT_NEAR(Tn.syncS - node(Without, "tn").syncS, -0.45, 1e-9) << "in the priced term";
  EXPECT_NEAR(node(E, "tn2").serialFaultS, 0, 1e-12) << "the base's design";
  EXPECT_NEAR(node(E, "tn2").timeS, node(Without, "tn2").timeS, 1e-12);
  EXPECT_NEAR(node(E, "bn").timeS, 10, 1e-9);
  // Without a one-thread configuration of its design, tn's own pf1p per
  // thread of its team: 1.6 us.
  EXPECT_NEAR(node(Run(false, 50000, SyncRule::Barriers).first, "tn").serialFaultS,
              50000 * (1.6 - 10) * 1e-6, 1e-9);
  // The serial code (1 s) is all they can take away.
  EXPECT_NEAR(node(Run(true, 500000, SyncRule::Barriers).first, "tn").serialFaultS, -1, 1e-9);
  EXPECT_NEAR(node(Run(true, 50000, SyncRule::Off).first, "tn").serialFaultS, 0, 1e-12);
  // A design without pf1p: unpriced, and said.
  Uncovered Y(1);
  Y.F.program.pageFaults = 50000;
  Y.L.Rows.push_back({"bn", "pf1p", 1, 4096, 10.0});
  Y.L.Cpu = {{"bn", "A"}, {"tn", "B"}};
  Estimate F = estimate(Y.F, Y.M, Y.L, "bn", {"tn"}, ThreadProjection::own());
  EXPECT_NEAR(F.serialFaultBaseCostUs, 10, 1e-12);
  EXPECT_TRUE(node(F, "tn").serialFaultsUnpriced);
  EXPECT_NEAR(node(F, "tn").serialFaultS, 0, 1e-12);
}

// Each top-level region's parts of a node's time: r holds a's estimate, its
// 4 s outside a (kept or scaled), the barriers' term and its faults'; q its
// kept second and its faults; with the serial second they add up to the
// node's time.
TEST(Regions, EachTopLevelRegionsPartsAddUpToTheNodesTime) {
  for (UncoveredRule U : {UncoveredRule::Kept, UncoveredRule::Scaled}) {
    Uncovered X(1);
    X.F.phases[0].pageFaults = 1000000;
    X.F.phases[3].pageFaults = 100000;
    X.L.Rows.push_back({"bn", "pf1p", 2, 4096, 2.0});
    X.L.Rows.push_back({"tn", "pf1p", 2, 4096, 6.0});
    Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(),
                          Projection::Absolute, SyncRule::Barriers, U);
    for (const NodeEstimate &N : E.nodes) {
      ASSERT_EQ(N.regions.size(), 2u) << N.node;
      const RegionEstimate &R = N.regions[0], &Q = N.regions[1];
      EXPECT_EQ(X.F.phases[R.phase].id, "r");
      EXPECT_EQ(X.F.phases[Q.phase].id, "q");
      bool Tn = N.node == "tn";
      EXPECT_NEAR(R.phasesS, Tn ? 8 : 4, 1e-9);
      EXPECT_NEAR(R.uncoveredS, !Tn || U == UncoveredRule::Kept ? 4 : 0.001 + 3.999 * 2, 1e-9);
      EXPECT_NEAR(Q.phasesS, 0, 1e-12);
      EXPECT_NEAR(Q.uncoveredS, 1, 1e-12);
      // r: 10^6 faults at 3 us less its 1 s of base fault time scaled 2x
      // with a; q: 10^5 at 3 us less its kept 0.1 s.
      EXPECT_NEAR(R.faultS, Tn ? 3 - 2 : 0, 1e-9);
      EXPECT_NEAR(Q.faultS, Tn ? 0.3 - 0.1 : 0, 1e-9);
      EXPECT_NEAR(R.syncS, Tn ? 0.04 + R.faultS : 0, 1e-9);
      EXPECT_NEAR(Q.syncS, Q.faultS, 1e-12);
      EXPECT_NEAR(R.timeS() + Q.timeS() + E.serialS, N.timeS, 1e-9) << N.node;
    }
  }
}

// A region with a runs_if test that fails at the count a node is projected
// onto is not run there: none of its parts (its leaf, its time outside it,
// its barriers, its faults) is charged, under every rule; q and the serial
// second stay. At the region's own count its tests held in the base run.
TEST(Regions, ARegionWhoseTestFailsAtTheNodesCountIsNotRunThere) {
  for (UncoveredRule U : {UncoveredRule::Kept, UncoveredRule::Scaled})
    for (Projection P : {Projection::Absolute, Projection::Ratio}) {
      Uncovered X(1);
      X.F.phases[0].runsIf = {*parseThreadTestText("threads > 1")};
      X.F.phases[0].pageFaults = 1000000;
      X.L.Rows.push_back({"bn", "k", 1, 256, 1.5});
      X.L.Rows.push_back({"tn", "k", 1, 256, 3});
      X.L.Rows.push_back({"bn", "pf1p", 1, 4096, 2.0});
      X.L.Rows.push_back({"tn", "pf1p", 1, 4096, 6.0});
      X.L.pair("bn", 1, 16, 0.01, 1);
      X.L.pair("tn", 1, 16, 0.01, 41);
      Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::fixed(1), P,
                            SyncRule::Barriers, U);
      for (const NodeEstimate &N : E.nodes) {
        ASSERT_EQ(N.regions.size(), 2u);
        const RegionEstimate &R = N.regions[0], &Q = N.regions[1];
        EXPECT_FALSE(R.runs) << N.node;
        EXPECT_TRUE(Q.runs) << N.node;
        EXPECT_EQ(N.regionsNotRun, 1u);
        EXPECT_EQ(R.timeS(), 0) << N.node;
        ASSERT_EQ(N.phases.size(), 1u);
        EXPECT_EQ(N.phases[0].kind, PhaseEstimate::NotRun);
        EXPECT_EQ(N.phases[0].timeS, 0);
        EXPECT_EQ(N.missing, 0u);
        EXPECT_NEAR(N.timeS, 1 + 1, 1e-9) << N.node << " " << projectionName(P);
        EXPECT_NEAR(N.absoluteS, 1 + 1, 1e-9) << N.node;
      }
      Estimate Own = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(), P,
                              SyncRule::Barriers, U);
      for (const NodeEstimate &N : Own.nodes) {
        EXPECT_TRUE(N.regions[0].runs) << N.node;
        EXPECT_EQ(N.regionsNotRun, 0u);
      }
    }
}

namespace {

/// 1.1 s: 0.1 s serial and a `parallel for` p that is its own phase (1 s
/// fork to join over 1000 forks, its slowest thread 0.8 s of it, 4e6
/// iterations); on "tn" p's uB runs 2x slower and a barrier costs 41 us
/// instead of 1.
struct ForkJoin {
  PhaseFile F;
  std::vector<PhaseMatch> M;
  ProfileLookup L;
  explicit ForkJoin(double BaseTpiUs) {
    F.program.totalTimeS = 1.1;
    F.program.threads = 2;
    F.program.threadsShareCpus = false;
    Phase P;
    P.id = "p";
    P.kind = "parallel for";
    P.threads = 2;
    P.timeS = 1.0;
    P.iterations = 4e6;
    P.tpiUs = 0.25;
    P.invocations = 1000;
    P.barriers = 1000;
    P.threadTimeS = Phase::ThreadTimes{0.7, 0.75, 0.8};
    F.phases = {P};
    M = {matchedOnK(0, BaseTpiUs)};
    twoNodes(L, BaseTpiUs);
  }
};

} // namespace

// p's 0.2 s beyond its slowest thread (its forks and joins) is not scaled
// with its work: the uB projects the 0.8 s, the rest is kept and the
// barrier term prices the joins on tn. Under the absolute rule the 0.2 s
// is in every node's estimate (the uB's tpi x iterations is work only).
TEST(ForkJoin, ARegionThatIsItsOwnPhaseProjectsOnlyItsSlowestThreadsTime) {
  for (Projection Rule : {Projection::Absolute, Projection::Ratio})
    for (UncoveredRule U : {UncoveredRule::Kept, UncoveredRule::Scaled}) {
      // Under the ratio rule the calibration scales the uB to the work.
      ForkJoin X(Rule == Projection::Ratio ? 0.1 : 0.2);
      Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(), Rule,
                            SyncRule::Barriers, U);
      EXPECT_NEAR(E.forkJoinS, 0.2, 1e-12);
      EXPECT_EQ(E.forkJoinRegions, 1u);
      EXPECT_NEAR(E.coveredS, 0.8, 1e-12);
      EXPECT_NEAR(E.uncoveredS, 0.3, 1e-12);
      const NodeEstimate &Bn = node(E, "bn"), &Tn = node(E, "tn");
      EXPECT_NEAR(Bn.phasesS, 0.8, 1e-9);
      EXPECT_NEAR(Bn.timeS, 1.1, 1e-9) << "the base node gets its run back";
      EXPECT_NEAR(Tn.phasesS, 1.6, 1e-9);
      EXPECT_NEAR(Tn.uncoveredS, 0.3, 1e-9) << "kept under either rule";
      EXPECT_NEAR(Tn.syncS, 1000 * 40e-6, 1e-12);
      EXPECT_NEAR(Tn.timeS, 1.6 + 0.3 + 0.04, 1e-9);
      ASSERT_TRUE(E.selfCheckPercent());
      if (Rule == Projection::Absolute) {
        EXPECT_NEAR(*E.selfCheckPercent(), 0, 1e-9) << "the forks and joins are in it";
      }
    }
}

TEST(ForkJoin, OnlyWhereTheBaseRunsThreadsHadCpusOfTheirOwn) {
  // Shared CPUs (a thread's time holds the others' turns), a runtime that
  // did not say, no per-thread times, or --sync off: the whole 1 s is the
  // phase's and scaled 2x.
  for (int Case = 0; Case < 4; ++Case) {
    ForkJoin X(0.25);
    SyncRule Sync = SyncRule::Barriers;
    if (Case == 0)
      X.F.program.threadsShareCpus = true;
    if (Case == 1)
      X.F.program.threadsShareCpus.reset();
    if (Case == 2)
      X.F.phases[0].threadTimeS.reset();
    if (Case == 3)
      Sync = SyncRule::Off;
    Estimate E = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(),
                          Projection::Ratio, Sync);
    EXPECT_EQ(E.forkJoinS, 0) << Case;
    EXPECT_EQ(E.forkJoinRegions, 0u) << Case;
    EXPECT_NEAR(node(E, "tn").phasesS, 2.0, 1e-9) << Case;
    EXPECT_NEAR(node(E, "tn").uncoveredS, 0.1, 1e-9) << Case;
  }
  // A worksharing loop inside a region is not split: its region's time
  // outside it holds the forks and joins already.
  Uncovered Y(1);
  Y.F.program.threadsShareCpus = false;
  Y.F.phases[1].threadTimeS = Phase::ThreadTimes{1, 2, 3};
  Estimate E = estimate(Y.F, Y.M, Y.L, "bn", {"tn"}, ThreadProjection::own());
  EXPECT_EQ(E.forkJoinRegions, 0u);
  EXPECT_NEAR(node(E, "tn").phasesS, 8, 1e-9);
  // A node without the uB keeps the work as measured and the rest as well.
  ForkJoin Z(0.25);
  Estimate M = estimate(Z.F, Z.M, Z.L, "bn", {"mn"}, ThreadProjection::own(), Projection::Ratio,
                        SyncRule::Barriers);
  EXPECT_EQ(node(M, "mn").missing, 1u);
  EXPECT_NEAR(node(M, "mn").phasesS + node(M, "mn").uncoveredS, 1.1, 1e-9);
}

TEST(Check, AnotherUncoveredRuleIsAnInputError) {
  nlohmann::ordered_json Cur = doc(100), Base = doc(100);
  Cur["uncovered"]["by"] = "scaled";
  try {
    checkAgainstBaseline(Cur, Base.dump(), "b.json", 0);
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_EQ(std::string(E.what()),
              "b.json: uncovered.by: the baseline was estimated with --uncovered kept, this run "
              "with --uncovered scaled: use the same rule, or refresh the baseline");
  }
  Base["uncovered"]["by"] = "scaled";
  EXPECT_FALSE(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0).regressed);
  Base["uncovered"]["by"] = "stretched";
  EXPECT_THROW(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0), InputError);
}

TEST(Check, SlowerBeyondToleranceRegresses) {
  std::string Base = doc(100).dump();
  EXPECT_FALSE(checkAgainstBaseline(doc(100), Base, "b.json", 0).regressed);
  EXPECT_FALSE(checkAgainstBaseline(doc(90), Base, "b.json", 0).regressed);    // faster
  EXPECT_FALSE(checkAgainstBaseline(doc(104.9), Base, "b.json", 5).regressed); // +4.7%
  CheckResult R = checkAgainstBaseline(doc(120, "mbw1cX"), Base, "b.json", 5);
  EXPECT_TRUE(R.regressed);
  ASSERT_GE(R.lines.size(), 2u);
  EXPECT_NE(R.lines[0].find("tn1: 104 s -> 124 s (+19.23%, tolerance 5%)"), std::string::npos)
      << R.lines[0];
  EXPECT_NE(R.lines[1].find("phase mm: 100 s -> 120 s (+20.00%), profile mbwXA2hc "
                            "1:1:8:shared -> mbw1cX 1:1:8:shared"),
            std::string::npos)
      << R.lines[1];
}

// A regression that is no phase's: more barriers priced. The phases did not
// move; the report says the synchronization grew, and in which region.
TEST(Check, SynchronizationAndRegionsThatMovedAreNamed) {
  nlohmann::ordered_json Old = doc(100), Cur = doc(100);
  auto Regions = [](double R, double RSync, double Q) {
    return nlohmann::ordered_json::array(
        {{{"id", "r"}, {"time_s", R}, {"phases_time_s", 100}, {"uncovered_s", 1}, {"sync_s", RSync}},
         {{"id", "q"}, {"time_s", Q}, {"phases_time_s", 0}, {"uncovered_s", Q}, {"sync_s", 0}}});
  };
  Old["nodes"][0]["sync_s"] = 1;
  Old["nodes"][0]["regions"] = Regions(102, 1, 2);
  Old["nodes"][0]["time_s"] = 105;
  Cur["nodes"][0]["sync_s"] = 11;
  Cur["nodes"][0]["regions"] = Regions(112, 11, 2);
  Cur["nodes"][0]["time_s"] = 115;
  CheckResult R = checkAgainstBaseline(Cur, Old.dump(), "b.json", 5);
  EXPECT_TRUE(R.regressed);
  std::string All;
  for (const std::string &L : R.lines)
    All += L + "\n";
  EXPECT_NE(All.find("  synchronization and page faults: 1 s -> 11 s\n"), std::string::npos) << All;
  EXPECT_NE(All.find("  region r: 102 s -> 112 s (+9.80%), its synchronization and page faults "
                     "1 s -> 11 s\n"),
            std::string::npos)
      << All;
  EXPECT_EQ(All.find("phase mm"), std::string::npos) << "the phase did not move: " << All;
  EXPECT_EQ(All.find("region q"), std::string::npos) << "q did not move: " << All;
  // A baseline's malformed region: one error naming the field.
  Old["nodes"][0]["regions"][1]["time_s"] = "slow";
  try {
    checkAgainstBaseline(Cur, Old.dump(), "b.json", 5);
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_EQ(std::string(E.what()), "b.json: nodes[0].regions[1].time_s: expected a number");
  }
}

TEST(Check, AnotherThreadCountIsReportedNotCompared) {
  nlohmann::ordered_json Old = doc(100), Cur = doc(50);
  Old["nodes"][0]["threads"] = 2;
  Old["phases"][0]["estimates"]["tn1"]["threads"] = 2;
  Cur["nodes"][0]["threads"] = 4;
  Cur["phases"][0]["estimates"]["tn1"]["threads"] = 4;
  // Faster, but at another thread count: the gate cannot vouch for it.
  CheckResult R = checkAgainstBaseline(Cur, Old.dump(), "b.json", 50);
  EXPECT_TRUE(R.regressed);
  EXPECT_EQ(R.threadsChanged, 1u);
  EXPECT_EQ(R.slower, 0u);
  ASSERT_GE(R.lines.size(), 2u);
  EXPECT_EQ(R.lines[0], "node tn1: 104 s at 2 threads -> 54 s at 4 threads: THREAD COUNT "
                        "CHANGED, not compared (refresh the baseline)");
  EXPECT_EQ(R.lines[1], "  phase mm: 100 s -> 50 s (-50.00%), threads 2 -> 4");
  // The same thread counts compare as before.
  Cur["nodes"][0]["threads"] = 2;
  Cur["phases"][0]["estimates"]["tn1"]["threads"] = 2;
  R = checkAgainstBaseline(Cur, Old.dump(), "b.json", 0);
  EXPECT_FALSE(R.regressed);
  EXPECT_EQ(R.lines.size(), 1u);
  // A baseline without thread counts (older tool) is compared, and says so.
  R = checkAgainstBaseline(Cur, doc(100).dump(), "b.json", 0);
  EXPECT_FALSE(R.regressed);
  ASSERT_EQ(R.lines.size(), 2u);
  EXPECT_NE(R.lines[1].find("thread counts not compared"), std::string::npos) << R.lines[1];
}

TEST(Check, AnotherTimeRuleIsAnInputError) {
  nlohmann::ordered_json Cur = doc(100), Base = doc(100);
  Cur["projection"] = "ratio";
  try {
    checkAgainstBaseline(Cur, Base.dump(), "b.json", 0);
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_EQ(std::string(E.what()),
              "b.json: projection: the baseline was estimated with --projection absolute, this "
              "run with --projection ratio: use the same rule, or refresh the baseline");
  }
  Base["projection"] = "ratio";
  EXPECT_FALSE(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0).regressed);
  Base["projection"] = 3;
  EXPECT_THROW(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0), InputError);
}

TEST(Check, PricedBarriersOnOneSideOnlyIsAnInputError) {
  nlohmann::ordered_json Cur = doc(100), Base = doc(100);
  Cur["sync"] = {{"rule", "barriers"}, {"barriers", 27760}};
  try {
    checkAgainstBaseline(Cur, Base.dump(), "b.json", 0);
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_NE(std::string(E.what()).find("b.json: sync: the baseline did not price barriers "
                                         "apart, this run does"),
              std::string::npos)
        << E.what();
  }
  Base["sync"] = Cur["sync"];
  EXPECT_FALSE(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0).regressed);
  // Nothing to price (no barrier counts) compares with an older baseline.
  Cur["sync"]["barriers"] = 0;
  Base.erase("sync");
  EXPECT_FALSE(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0).regressed);
  Cur["sync"] = {{"rule", "off"}, {"barriers", 27760}};
  EXPECT_FALSE(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0).regressed);
  // Forks and joins kept apart on one side only (a baseline of an older
  // runtime or estimator): the same.
  Cur["sync"] = {{"rule", "barriers"}, {"barriers", 27760}, {"fork_join_s", 0.02},
                 {"fork_join_regions", 25}};
  Base["sync"] = {{"rule", "barriers"}, {"barriers", 27760}};
  try {
    checkAgainstBaseline(Cur, Base.dump(), "b.json", 0);
    FAIL() << "no error";
  } catch (const InputError &E) {
    EXPECT_NE(std::string(E.what()).find("b.json: sync: the baseline did not keep the forks and "
                                         "joins of regions that are their own phase apart, this "
                                         "run does"),
              std::string::npos)
        << E.what();
  }
  Base["sync"] = Cur["sync"];
  EXPECT_FALSE(checkAgainstBaseline(Cur, Base.dump(), "b.json", 0).regressed);
}

TEST(Check, BadBaselinesAreInputErrors) {
  auto Err = [](const std::string &Text) -> std::string {
    try {
      checkAgainstBaseline(doc(1), Text, "b.json", 0);
    } catch (const InputError &E) {
      return E.what();
    }
    return "(no error)";
  };
  EXPECT_EQ(Err("{").rfind("b.json: line 1, column 2: malformed JSON: syntax error", 0), 0u)
      << Err("{");
  EXPECT_EQ(Err(R"({"schema": "phaseprobe.phases/1"})"),
            "b.json: schema: expected \"phaseprobe.estimate/1\", found \"phaseprobe.phases/1\"");
  EXPECT_EQ(Err(R"({"schema": "phaseprobe.estimate/1", "phases": []})"),
            "b.json: nodes: missing: not an estimate (a phaseprobe-match result?)");
  EXPECT_EQ(Err(R"({"schema": "phaseprobe.estimate/1", "nodes": [{"node": "a", "time_s": "x"}]})"),
            "b.json: nodes[0].time_s: expected a number");
  EXPECT_EQ(Err(R"({"schema": "phaseprobe.estimate/1", "nodes": [{"node": "a", "time_s": 1, )"
                R"("threads": "x"}]})"),
            "b.json: nodes[0].threads: expected a thread count, a list of them or null");
}

TEST(Padding, UnpaddedNameStripsOnlyAWholePaddingSuffix) {
  EXPECT_EQ(unpaddedName("upd1p+w8"), "upd1p");
  EXPECT_EQ(unpaddedName("mbw1cr+e2+w10"), "mbw1cr+e2");
  EXPECT_EQ(unpaddedName("mbw2hpc+r64+w38/5"), "mbw2hpc+r64");
  EXPECT_EQ(unpaddedName("upd1p"), "");
  EXPECT_EQ(unpaddedName("mbw1c+r64"), "");
  EXPECT_EQ(unpaddedName("upd1p+w"), "");
  EXPECT_EQ(unpaddedName("upd1p+w8/"), "");
  EXPECT_EQ(unpaddedName("upd1p+w8x"), "");
}

namespace {
/// MapLookup with CPU models.
class CpuLookup : public MapLookup {
public:
  std::map<std::string, std::string> Cpu;
  std::string cpuDesign(const std::string &Node) const override {
    auto It = Cpu.find(Node);
    return It == Cpu.end() ? "" : It->second;
  }
};

/// The worked example's phase on a padded clone whose padding is 3/4 of
/// its time on the base node; tn1 has the base node's CPU, tn2 another.
struct PaddedFixture : Fixture {
  CpuLookup C;
  PaddedFixture() {
    M[0].candidate = cand("upd1p+w8", 100);
    M[0].ranked = {*M[0].candidate};
    C.Tpi = {{{"bn", "upd1p+w8", 4}, 0.01316}, {{"bn", "upd1p", 4}, 0.00329},
             {{"tn1", "upd1p+w8", 4}, 0.01316}, {{"tn2", "upd1p+w8", 4}, 0.00658},
             {{"tn2", "upd1p", 4}, 0.00329}};
    C.Cpu = {{"bn", "AMD EPYC"}, {"tn1", "AMD EPYC"}, {"tn2", "Intel(R) Xeon(R) Processor"}};
  }
};
} // namespace

TEST(Padding, AnotherCpuCarriedByPaddingIsWarnedOf) {
  PaddedFixture X;
  Estimate E = estimate(X.F, X.M, X.C, "bn", {"tn1", "tn2"}, 0);
  const NodeEstimate &Same = node(E, "tn1"), &Other = node(E, "tn2");
  // The node's own pair where it has one (tn2: half its time is padding),
  // else the base node's (tn1 lacks the unpadded twin: 3/4).
  ASSERT_TRUE(Other.phases[0].padded && Other.phases[0].paddingShare);
  EXPECT_NEAR(*Other.phases[0].paddingShare, 0.5, 1e-12);
  ASSERT_TRUE(Same.phases[0].paddingShare);
  EXPECT_NEAR(*Same.phases[0].paddingShare, 0.75, 1e-12);
  EXPECT_NEAR(Other.paddedS, 0.5 * 105.28, 1e-9);
  EXPECT_NEAR(Other.paddedShare(), 0.5 * 105.28 / (105.28 + E.uncoveredS), 1e-12);
  EXPECT_TRUE(Other.otherCpu);
  EXPECT_TRUE(Other.paddingWarned());
  EXPECT_NE(paddingWarning(E, Other).find("another CPU (Intel(R) Xeon(R) Processor) than the "
                                          "base node's (AMD EPYC), and 48% of this estimate"),
            std::string::npos);
  // The same CPU: the padding's share is reported, nothing is warned of.
  EXPECT_FALSE(Same.otherCpu);
  EXPECT_GT(Same.paddedShare(), 0.7);
  EXPECT_FALSE(Same.paddingWarned());
  EXPECT_EQ(paddingWarning(E, Same), "");
  // In the JSON: the share on every node with padded phases, the CPU and
  // the warning where it differs.
  auto J = estimateReportJson(reportInputs(X), X.M, E);
  for (const auto &N : J["nodes"]) {
    EXPECT_TRUE(N.contains("padded_share")) << N["node"];
    EXPECT_EQ(N.contains("warning"), N["node"] == "tn2") << N["node"];
    EXPECT_EQ(N.contains("cpu"), N["node"] == "tn2") << N["node"];
  }
}

// A padded clone's ratio from its padding family: upd1p+w7 and +w9 lie
// within 25% of the chosen +w8's base tpi; measured at other times, their
// ratios on tn are 1.0 and 1.1 where +w8's drifted to 1.5: the median 1.1
// carries the phase. +w30, far from it, and upd1p itself are no part of
// it; the base node keeps its own; below two clones the median of its own
// and its nearest relatives' on either side, else its own.
// HPCCG's SpMV (run hr, Zen 5 -> Xeon): its candidate walks one of its
// three streams (the vector, 125 points), its clone all three (115). On a
// node of the base node's design the candidate stays; on another design
// the clone is taken (kind Chosen, wholePhase), where the node has it, and
// OtherCpuProfile::Ranked keeps the candidate everywhere.
TEST(WholePhase, AnotherCpuTakesTheClone) {
  Fixture X;
  CpuLookup L;
  Candidate Part = cand("mbw1p", 125), Clone = cand("spmv3p", 115);
  Clone.score.reproducesPhase = true;
  X.M[0].candidate = Part;
  X.M[0].ranked = {Part, cand("mbw1pf", 115), Clone};
  L.Tpi = {{{"bn", "mbw1p", 4}, 0.01316},  {{"bn", "spmv3p", 4}, 0.0130},
           {{"tn1", "mbw1p", 4}, 0.01000}, {{"tn1", "spmv3p", 4}, 0.0200},
           {{"tn2", "mbw1p", 4}, 0.01100}, {{"tn2", "spmv3p", 4}, 0.0300},
           {{"tn3", "mbw1p", 4}, 0.01200}};
  L.Cpu = {{"bn", "AMD EPYC"}, {"tn1", "AMD EPYC"}, {"tn2", "Intel Xeon"}, {"tn3", "Intel Xeon"}};
  auto Run = [&](OtherCpuProfile O) {
    return estimate(X.F, X.M, L, "bn", {"tn1", "tn2", "tn3"}, ThreadProjection::own(),
                    Projection::Absolute, SyncRule::Barriers, UncoveredRule::Kept,
                    PaddedRatio::Family, PaddingAcross::Mix, SyncSweeps::Interval,
                    HandOverRule::Kept, O);
  };
  Estimate E = Run(OtherCpuProfile::WholePhase);
  const PhaseEstimate &Same = node(E, "tn1").phases[0], &Other = node(E, "tn2").phases[0];
  EXPECT_EQ(Same.rank, 0u);
  EXPECT_FALSE(Same.wholePhase);
  EXPECT_EQ(Other.kind, PhaseEstimate::Chosen);
  EXPECT_EQ(Other.rank, 2u);
  EXPECT_TRUE(Other.wholePhase);
  EXPECT_NEAR(Other.timeS, 0.0300 * 16000e6 * 1e-6, 1e-6);
  const std::vector<PhaseEstimate> &OtherPhases = node(E, "tn2").phases;
  EXPECT_EQ(std::count_if(OtherPhases.begin(), OtherPhases.end(),
                          [](const PhaseEstimate &PE) { return PE.wholePhase; }),
            1);
  EXPECT_EQ(node(E, "tn2").fallbacks, 0u);
  // tn3 lacks the clone: the candidate, as ranked.
  const PhaseEstimate &NoClone = node(E, "tn3").phases[0];
  EXPECT_EQ(NoClone.rank, 0u);
  EXPECT_FALSE(NoClone.wholePhase);
  EXPECT_EQ(node(E, "bn").phases[0].rank, 0u);
  MatchInputs In = reportInputs(X);
  auto J = estimateReportJson(In, X.M, E);
  EXPECT_EQ(J["other_cpu_profile"], "whole-phase");
  EXPECT_EQ(J["phases"][0]["estimates"]["tn2"]["whole_phase"], true);
  EXPECT_EQ(J["phases"][0]["estimates"]["tn2"]["profile"]["ubench"], "spmv3p");
  EXPECT_FALSE(J["phases"][0]["estimates"]["tn1"].contains("profile"));

  Estimate R = Run(OtherCpuProfile::Ranked);
  EXPECT_EQ(node(R, "tn2").phases[0].rank, 0u);
  EXPECT_NEAR(node(R, "tn2").phases[0].timeS, 0.011 * 16000e6 * 1e-6, 1e-6);
  EXPECT_EQ(parseOtherCpuProfile("ranked"), OtherCpuProfile::Ranked);
  EXPECT_FALSE(parseOtherCpuProfile("clone"));
}

TEST(Padding, AFamilyRatioPoolsTheClonesPaddedAlike) {
  PaddedFixture X;
  X.C.Tpi = {{{"bn", "upd1p+w8", 4}, 0.01316}, {{"bn", "upd1p+w7", 4}, 0.012},
             {{"bn", "upd1p+w9", 4}, 0.0145},  {{"bn", "upd1p+w30", 4}, 0.04},
             {{"bn", "upd1p", 4}, 0.00329},    {{"tn", "upd1p+w8", 4}, 0.01316 * 1.5},
             {{"tn", "upd1p+w7", 4}, 0.012},   {{"tn", "upd1p+w9", 4}, 0.0145 * 1.1},
             {{"tn", "upd1p+w30", 4}, 0.02},   {{"tn", "upd1p", 4}, 0.00329 * 0.5}};
  auto Run = [&](PaddedRatio R) {
    return estimate(X.F, X.M, X.C, "bn", {"tn"}, ThreadProjection::own(), Projection::Absolute,
                    SyncRule::Barriers, UncoveredRule::Kept, R);
  };
  Estimate Own = Run(PaddedRatio::Own), Family = Run(PaddedRatio::Family);
  const double Bn = node(Own, "bn").phasesS;
  EXPECT_NEAR(node(Own, "tn").phasesS, Bn * 1.5, 1e-6);
  EXPECT_EQ(node(Own, "tn").phases[0].paddingFamily, 0u);
  EXPECT_NEAR(node(Family, "tn").phasesS, Bn * 1.1, 1e-6);
  EXPECT_NEAR(node(Family, "tn").phases[0].tpiUs, 0.01316 * 1.1, 1e-12);
  EXPECT_EQ(node(Family, "tn").phases[0].paddingFamily, 3u);
  EXPECT_NEAR(node(Family, "bn").phasesS, Bn, 1e-9);
  EXPECT_EQ(node(Family, "bn").phases[0].paddingFamily, 0u);
  EXPECT_EQ(Family.padded, PaddedRatio::Family);
  // No family near it on tn: its own ratio (1.5) against its nearest
  // relatives', the twin below (0.5) and +w30 above (0.5): the median.
  X.C.Tpi.erase({"tn", "upd1p+w7", 4});
  X.C.Tpi.erase({"tn", "upd1p+w9", 4});
  Estimate Near = Run(PaddedRatio::Family);
  EXPECT_NEAR(node(Near, "tn").phasesS, Bn * 0.5, 1e-6);
  EXPECT_TRUE(node(Near, "tn").phases[0].paddingNeighbours);
  // One side only (no twin on tn): its own ratio.
  X.C.Tpi.erase({"tn", "upd1p", 4});
  Estimate Own1 = Run(PaddedRatio::Family);
  EXPECT_NEAR(node(Own1, "tn").phasesS, Bn * 1.5, 1e-6);
  EXPECT_FALSE(node(Own1, "tn").phases[0].paddingNeighbours);
  EXPECT_EQ(node(Own1, "tn").phases[0].paddingFamily, 0u);
  EXPECT_EQ(parsePaddedRatio("family"), PaddedRatio::Family);
  EXPECT_EQ(parsePaddedRatio("own"), PaddedRatio::Own);
  EXPECT_FALSE(parsePaddedRatio("median"));
}

// Across CPU designs the padding is priced by the phase's op mix: three
// adds and a multiply, where tn2 adds twice as fast as bn and multiplies
// as fast. The clone there: its unpadded twin on tn2 plus its padding on bn
// (0.01316 - 0.00329) times (3 x 0.0015 + 0.003) / (3 x 0.003 + 0.003) =
// 0.625; carried, its own profile's 0.00658. The same CPU (tn1), which
// adds as fast as tn2, is priced alike (its profile kept under
// MixOtherCpu); the base node keeps its own; without a compute uB, or a
// mix without add or multiply, the padding is carried.
TEST(Padding, AnotherCpuPricesThePaddingAtThePhasesOpMix) {
  PaddedFixture X;
  X.F.phases[0].ops = OpCounts{3, 1, 0, 0, 0};
  X.C.Tpi[{"bn", "upd1p", 4}] = 0.00329;
  X.C.Tpi[{"tn1", "upd1p", 4}] = 0.00329;
  X.C.Tpi[{"bn", "cadd", 4}] = 0.003;
  X.C.Tpi[{"bn", "cmul", 4}] = 0.003;
  X.C.Tpi[{"tn2", "cadd", 4}] = 0.0015;
  X.C.Tpi[{"tn2", "cmul", 4}] = 0.003;
  X.C.Tpi[{"tn1", "cadd", 4}] = 0.0015;
  X.C.Tpi[{"tn1", "cmul", 4}] = 0.003;
  auto Run = [&](PaddingAcross A) {
    return estimate(X.F, X.M, X.C, "bn", {"tn1", "tn2"}, ThreadProjection::own(),
                    Projection::Absolute, SyncRule::Barriers, UncoveredRule::Kept,
                    PaddedRatio::Family, A);
  };
  Estimate Mix = Run(PaddingAcross::Mix), Carried = Run(PaddingAcross::Carried);
  const PhaseEstimate &On2 = node(Mix, "tn2").phases[0];
  ASSERT_TRUE(On2.paddingMixRatio);
  EXPECT_NEAR(*On2.paddingMixRatio, 0.625, 1e-12);
  EXPECT_NEAR(On2.tpiUs, 0.00329 + (0.01316 - 0.00329) * 0.625, 1e-12);
  EXPECT_NEAR(node(Carried, "tn2").phases[0].tpiUs, 0.00658, 1e-12);
  EXPECT_FALSE(node(Carried, "tn2").phases[0].paddingMixRatio);
  EXPECT_NEAR(node(Mix, "tn1").phases[0].tpiUs, 0.00329 + (0.01316 - 0.00329) * 0.625, 1e-12);
  EXPECT_TRUE(node(Mix, "tn1").phases[0].paddingMixRatio);
  EXPECT_FALSE(node(Mix, "tn1").paddingWarned()) << "the same design: not warned of";
  EXPECT_NEAR(node(Mix, "bn").phases[0].tpiUs, 0.01316, 1e-12);
  EXPECT_FALSE(node(Mix, "bn").phases[0].paddingMixRatio);
  Estimate Other = Run(PaddingAcross::MixOtherCpu);
  EXPECT_NEAR(node(Other, "tn1").phases[0].tpiUs, 0.01316, 1e-12);
  EXPECT_FALSE(node(Other, "tn1").phases[0].paddingMixRatio);
  EXPECT_NEAR(node(Other, "tn2").phases[0].tpiUs, On2.tpiUs, 1e-12);
  // Repriced padding is no carried padding, but still a stand-in: warned
  // of, saying it was priced by the mix.
  EXPECT_GT(node(Mix, "tn2").paddedShare(), 0.5);
  EXPECT_NEAR(node(Mix, "tn2").paddedCarriedShare(), 0, 1e-12);
  EXPECT_TRUE(node(Mix, "tn2").paddingWarned());
  EXPECT_NE(paddingWarning(Mix, node(Mix, "tn2")).find("100% of it priced by the phases' op mix"),
            std::string::npos)
      << paddingWarning(Mix, node(Mix, "tn2"));
  EXPECT_EQ(paddingWarning(Carried, node(Carried, "tn2")).find("op mix"), std::string::npos);
  EXPECT_TRUE(node(Carried, "tn2").paddingWarned());
  EXPECT_EQ(Mix.across, PaddingAcross::Mix);
  EXPECT_EQ(parsePaddingAcross("mix"), PaddingAcross::Mix);
  EXPECT_EQ(parsePaddingAcross("carried"), PaddingAcross::Carried);
  EXPECT_EQ(parsePaddingAcross("mix-other-cpu"), PaddingAcross::MixOtherCpu);
  EXPECT_STREQ(paddingAcrossName(PaddingAcross::MixOtherCpu), "mix-other-cpu");
  EXPECT_FALSE(parsePaddingAcross("own"));
  EXPECT_STREQ(paddingAcrossName(PaddingAcross::Carried), "carried");
  // The ratio by itself, at the thread count of each side.
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{3, 1, 0, 0, 0}, "tn2", 4, "bn", 4), 0.625, 1e-12);
  EXPECT_FALSE(opMixRatio(X.C, OpCounts{3, 1, 0, 0, 0}, "tn2", 2, "bn", 4));
  EXPECT_FALSE(opMixRatio(X.C, OpCounts{0, 0, 2, 1, 0}, "tn2", 4, "bn", 4))
      << "division and square root have no compute uB";
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{2, 0, 5, 5, 5}, "tn2", 4, "bn", 4), 0.5, 1e-12)
      << "no cdiv, csqrt: divisions and square roots left out";
  // With them on both nodes, priced too: tn2 divides at bn's speed.
  X.C.Tpi[{"bn", "cdiv", 4}] = 0.012;
  X.C.Tpi[{"tn2", "cdiv", 4}] = 0.012;
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{2, 0, 1, 0, 0}, "tn2", 4, "bn", 4),
              (2 * 0.0015 + 0.012) / (2 * 0.003 + 0.012), 1e-12);
  X.C.Tpi.erase({"tn2", "cdiv", 4});
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{2, 0, 1, 0, 0}, "tn2", 4, "bn", 4), 0.5, 1e-12)
      << "cdiv on one node only: left out";
  X.C.Tpi.erase({"tn2", "cmul", 4});
  EXPECT_NEAR(node(Run(PaddingAcross::Mix), "tn2").phases[0].tpiUs, 0.00658, 1e-12)
      << "a compute uB missing on the node: carried";
  X.C.Tpi[{"tn2", "cmul", 4}] = 0.003;
  X.F.phases[0].ops.reset();
  EXPECT_NEAR(node(Run(PaddingAcross::Mix), "tn2").phases[0].tpiUs, 0.00658, 1e-12)
      << "a phase file without ops: carried";
}

// Under MixPricing::Throughput the adds and multiplies are priced by the
// throughput uBs where both nodes have them: tn2's independent adds are as
// fast as bn's while its dependent ones are twice as fast, so the same
// mix (3 adds, 1 multiply) is priced at 1 instead of 0.625; a node without
// them falls back to the latency uBs, and says so.
TEST(Padding, ThroughputPricingUsesTheIndependentChains) {
  PaddedFixture X;
  X.F.phases[0].ops = OpCounts{3, 1, 0, 0, 0};
  X.C.Tpi[{"bn", "upd1p", 4}] = 0.00329;
  X.C.Tpi[{"tn1", "upd1p", 4}] = 0.00329;
  for (const char *N : {"bn", "tn1", "tn2"}) {
    X.C.Tpi[{N, "cadd", 4}] = std::string(N) == "bn" ? 0.003 : 0.0015;
    X.C.Tpi[{N, "cmul", 4}] = 0.003;
    X.C.Tpi[{N, "tadd", 4}] = 0.001;
    X.C.Tpi[{N, "tmul", 4}] = std::string(N) == "bn" ? 0.001 : 0.002;
  }
  X.C.Tpi.erase({"tn1", "tmul", 4});
  auto Run = [&](MixPricing P) {
    return estimate(X.F, X.M, X.C, "bn", {"tn1", "tn2"}, ThreadProjection::own(),
                    Projection::Absolute, SyncRule::Barriers, UncoveredRule::Kept,
                    PaddedRatio::Family, PaddingAcross::Mix, SyncSweeps::Interval,
                    HandOverRule::Kept, OtherCpuProfile::Ranked, InvocationRule::Priced, P);
  };
  Estimate Tp = Run(MixPricing::Throughput), Lat = Run(MixPricing::Latency);
  EXPECT_EQ(Tp.mixPricing, MixPricing::Throughput);
  EXPECT_EQ(Lat.mixPricing, MixPricing::Latency);
  const PhaseEstimate &On2 = node(Tp, "tn2").phases[0];
  ASSERT_TRUE(On2.paddingMixRatio);
  EXPECT_NEAR(*On2.paddingMixRatio, (3 * 0.001 + 0.002) / (3 * 0.001 + 0.001), 1e-12);
  EXPECT_EQ(On2.paddingMixPricing, MixPricing::Throughput);
  EXPECT_NEAR(On2.tpiUs, 0.00329 + (0.01316 - 0.00329) * 1.25, 1e-12);
  EXPECT_NEAR(*node(Lat, "tn2").phases[0].paddingMixRatio, 0.625, 1e-12);
  EXPECT_EQ(node(Lat, "tn2").phases[0].paddingMixPricing, MixPricing::Latency);
  // tn1 has no tmul: the latency uBs price it, and it says so.
  const PhaseEstimate &On1 = node(Tp, "tn1").phases[0];
  ASSERT_TRUE(On1.paddingMixRatio);
  EXPECT_NEAR(*On1.paddingMixRatio, 0.625, 1e-12);
  EXPECT_EQ(On1.paddingMixPricing, MixPricing::Latency);
  // The ratio by itself.
  MixPricing Used = MixPricing::Latency;
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{0, 2, 0, 0, 0}, "tn2", 4, "bn", 4,
                          MixPricing::Throughput, &Used),
              2.0, 1e-12);
  EXPECT_EQ(Used, MixPricing::Throughput);
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{0, 2, 0, 0, 0}, "tn1", 4, "bn", 4,
                          MixPricing::Throughput, &Used),
              1.0, 1e-12);
  EXPECT_EQ(Used, MixPricing::Latency);
  // Only the kinds the mix has must be there: adds alone need no tmul.
  EXPECT_NEAR(*opMixRatio(X.C, OpCounts{4, 0, 0, 0, 0}, "tn1", 4, "bn", 4,
                          MixPricing::Throughput, &Used),
              1.0, 1e-12);
  EXPECT_EQ(Used, MixPricing::Throughput);
  EXPECT_EQ(parseMixPricing("throughput"), MixPricing::Throughput);
  EXPECT_EQ(parseMixPricing("latency"), MixPricing::Latency);
  EXPECT_FALSE(parseMixPricing("both"));
  EXPECT_STREQ(mixPricingName(MixPricing::Throughput), "throughput");
  auto J = estimateReportJson(reportInputs(X), X.M, Tp);
  EXPECT_EQ(J["mix_pricing"], "throughput");
  bool Seen = false;
  for (const auto &[Node, PE] : J["phases"][0]["estimates"].items())
    if (PE.contains("padding_mix_ratio")) {
      EXPECT_EQ(PE["padding_mix_pricing"], Node == "tn2" ? "throughput" : "latency") << Node;
      Seen |= Node == "tn2";
    }
  EXPECT_TRUE(Seen);
}

TEST(Padding, NoWarningWithoutBothCpusOrBelowTheShare) {
  PaddedFixture X;
  X.C.Cpu.erase("bn"); // an NPPDB node without its CPU model: nothing to compare
  Estimate E = estimate(X.F, X.M, X.C, "bn", {"tn2"}, 0);
  EXPECT_FALSE(node(E, "tn2").otherCpu);
  EXPECT_FALSE(node(E, "tn2").paddingWarned());
  // Padding a tenth of the clone's time on tn2: under the threshold.
  PaddedFixture Y;
  Y.C.Tpi[{"tn2", "upd1p", 4}] = 0.00658 * 0.9;
  E = estimate(Y.F, Y.M, Y.C, "bn", {"tn2"}, 0);
  EXPECT_TRUE(node(E, "tn2").otherCpu);
  EXPECT_LT(node(E, "tn2").paddedShare(), NodeEstimate::PaddedShareWarning);
  EXPECT_FALSE(node(E, "tn2").paddingWarned());
  // No unpadded twin on either node: the share is unknown, not warned of.
  PaddedFixture Z;
  Z.C.Tpi.erase({"bn", "upd1p", 4});
  Z.C.Tpi.erase({"tn2", "upd1p", 4});
  E = estimate(Z.F, Z.M, Z.C, "bn", {"tn2"}, 0);
  EXPECT_FALSE(node(E, "tn2").phases[0].paddingShare);
  EXPECT_NEAR(node(E, "tn2").paddedUnknownS, 105.28, 1e-9);
  EXPECT_EQ(node(E, "tn2").paddedS, 0);
  EXPECT_FALSE(node(E, "tn2").paddingWarned());
}

// A 2-thread base chose a padded clone whose request the kernels measured
// with other streams at 16 threads (whole elements per thread): the lookup
// finds the clone and its padding family there by their request, and the
// exact streams still win where they exist.
TEST(NppdbLookup, AnotherThreadCountFindsTheProfileByItsRequest) {
  char Tmpl[] = "/tmp/pp-lookup-XXXXXX";
  std::string Dir = ::mkdtemp(Tmpl), Path = Dir + "/t.sqlite";
  {
    auto Db = Nppdb::open(Path, Nppdb::Mode::Create);
    Db->ensureNode("base");
    Db->ensureNode("big");
    auto Add = [&](const std::string &Node, const std::string &UB, unsigned Th, double Fp,
                   double Tpi) {
      Profile P;
      P.node = Node;
      P.ubench = UB;
      P.threads = Th;
      P.streams = {T(Fp, 8, 8, Access::Private)};
      P.tpiUs = Tpi;
      P.params["requested"] = "10219.921875:8";
      Db->addProfile(P, 0, false);
    };
    for (const char *UB : {"cpy1p+w3", "cpy1p+w5", "cpy1p"}) {
      Add("base", UB, 2, 10219.921875, 1.0);
      Add("big", UB, 16, 10219.875, 0.25);
    }
    Add("big", "cpy1p+w3", 2, 10219.921875, 0.5); // measured exactly at 2
    NppdbTpiLookup L(*Db);
    const std::vector<StreamTuple> Chosen = {T(10219.921875, 8, 8, Access::Private)};
    EXPECT_EQ(L.tpi("big", "cpy1p+w3", Chosen, 16), std::optional<double>(0.25));
    EXPECT_EQ(L.tpi("big", "cpy1p+w3", Chosen, 2), std::optional<double>(0.5));
    EXPECT_FALSE(L.tpi("big", "cpy1p+w3", Chosen, 8));
    EXPECT_FALSE(L.tpi("big", "cpy2p", Chosen, 16));
    EXPECT_EQ(L.sameStreams("big", Chosen, 16).size(), 3u);
    EXPECT_EQ(L.sameStreams("base", Chosen, 2).size(), 3u);
  }
  for (const char *S : {"", "-wal", "-shm"})
    std::remove((Path + S).c_str());
  ::rmdir(Dir.c_str());
}

// Serial code keeps its base time on every node (METHOD.md); on another CPU
// design an estimate that is 20% or more of it is warned of, in the JSON
// too, and the serial code a node's thread count skips does not count.
TEST(Serial, KeptSerialCodeOnAnotherCpuIsWarnedOf) {
  Estimate E;
  E.base = "bn";
  E.serialS = 0.05;
  NodeEstimate B, Same, Other, Little;
  B.node = "bn";
  B.cpu = "AMD EPYC";
  B.timeS = 0.5;
  Same = B;
  Same.node = "same";
  Same.timeS = 0.12; // 42% serial, the same design: reported, not warned
  Other = Same;
  Other.node = "xeon";
  Other.cpu = "Intel(R) Xeon(R) Processor";
  Other.otherCpu = true;
  Little = Other;
  Little.node = "xeon-2t";
  Little.timeS = 0.5; // 10%
  E.nodes = {B, Same, Other, Little};
  EXPECT_NEAR(serialKeptShare(E, Other), 0.05 / 0.12, 1e-12);
  EXPECT_EQ(serialWarning(E, Same), "");
  EXPECT_EQ(serialWarning(E, Little), "");
  EXPECT_TRUE(serialWarned(E, Other));
  EXPECT_FALSE(serialWarned(E, Same));
  std::string W = serialWarning(E, Other);
  EXPECT_NE(W.find("another CPU (Intel(R) Xeon(R) Processor) than the base node's (AMD EPYC), "
                   "and 42% of this estimate is serial code kept at its time on the base node"),
            std::string::npos)
      << W;
  Other.serialNotRunS = 0.03; // 17% left: under the threshold
  EXPECT_EQ(serialWarning(E, Other), "");
  NodeEstimate Empty;
  EXPECT_EQ(serialKeptShare(E, Empty), 0);
}

// Hand-over: a pair of uBs, ho1p (every line another thread's) and hk1p
// (none), per footprint; the cost of a line is their difference per element
// times the elements of a line.
TEST(HandOver, CostIsTheFlipMinusItsReferencePerLine) {
  ProfileLookup L;
  L.Rows.push_back({"n", HandOverUBench, 2, 512, 0.002 + 0.8 / 8});
  L.Rows.push_back({"n", HandKeepUBench, 2, 512, 0.002});
  L.Rows.push_back({"n", HandOverUBench, 2, 4096, 0.003 + 1.6 / 8});
  L.Rows.push_back({"n", HandKeepUBench, 2, 4096, 0.003});
  EXPECT_NEAR(*handOverCostUs(L, "n", 2, 512), 0.8, 1e-12);
  EXPECT_NEAR(*handOverCostUs(L, "n", 2, 1500), 0.8 + 0.8 * std::log(1500 / 512.) / std::log(8.),
              1e-12)
      << "between two footprints, in log";
  EXPECT_NEAR(*handOverCostUs(L, "n", 2, 100), 0.8, 1e-12) << "below the smallest: its cost";
  EXPECT_NEAR(*handOverCostUs(L, "n", 2, 1e6), 1.6, 1e-12) << "above the largest: its cost";
  EXPECT_EQ(*handOverCostUs(L, "n", 1, 512), 0) << "one thread hands nothing over";
  EXPECT_FALSE(handOverCostUs(L, "m", 2, 512));
  L.Rows.push_back({"m", HandOverUBench, 2, 512, 0.001});
  EXPECT_FALSE(handOverCostUs(L, "m", 2, 512)) << "without its reference";
  L.Rows.push_back({"m", HandKeepUBench, 2, 512, 0.002});
  EXPECT_EQ(*handOverCostUs(L, "m", 2, 512), 0) << "a flip faster than its reference: noise";
}

// The lines an invocation hands over are those it reaches: a stream's
// footprint pools what all invocations visit, a sweep of planes the whole
// array. 100 invocations of 1000 iterations a thread at two threads, 1.5
// accesses an iteration, reach 3000 elements of a stream an invocation.
TEST(HandOver, AnInvocationHandsOverWhatItReaches) {
  Phase P;
  P.threads = 2;
  P.invocations = 100;
  P.iterations = 100 * 1000;
  PhaseStream S;
  S.tuple = ProfileLookup::unit(1024);
  S.handoverShare = 0.5;
  P.streams = {S};
  EXPECT_NEAR(handedLines(P), 100 * 0.5 * 1024 * 1024 / 64, 1e-9)
      << "no accesses known: the footprint every invocation";
  P.streams[0].accessesPerIter = 1.5;
  EXPECT_NEAR(invocationReachBytes(P, P.streams[0]), 3000 * 8, 1e-9) << "8 B apart";
  EXPECT_NEAR(handedLines(P), 100 * 0.5 * 3000 * 8 / 64, 1e-9);
  // With the writers' rounds: once a round, at most as often as the 100
  // invocations walk the 1 MiB (100 x 24000 B: 2.29 times).
  P.streams[0].handoverRounds = 2;
  EXPECT_NEAR(handedLines(P), 2 * 0.5 * 1024 * 1024 / 64, 1e-9);
  P.streams[0].handoverRounds = 50;
  EXPECT_NEAR(handedLines(P), 100 * 0.5 * 3000 * 8 / 64, 1e-9);
  P.streams[0].handoverRounds = 0;
  EXPECT_NEAR(handedLines(P), 0, 0) << "never written by a writer";
  P.streams[0].handoverRounds.reset();
  P.streams[0].tuple.strideBytes = 4096;
  EXPECT_NEAR(invocationReachBytes(P, P.streams[0]), 3000 * 64, 1e-9) << "a line an access";
  P.streams[0].accessesPerIter = 100;
  EXPECT_NEAR(invocationReachBytes(P, P.streams[0]), 1024 * 1024, 1e-9) << "at most the footprint";
  P.invocations = 0;
  EXPECT_NEAR(invocationReachBytes(P, P.streams[0]), 1024 * 1024, 1e-9);
}

// Phase a (4 s, 100 invocations) hands over half of a 1 MiB stream every
// invocation: 8192 lines, 4096 a thread. On bn a line costs 2.5 us, so 1.024
// s of a's base time were hand-overs; tn runs k 2x slower (the projection
// made them 2.048 s) and a line costs 0.5 us there (0.2048 s); at one
// thread nothing is handed over.
TEST(HandOver, TheBaseHandOverTimeLeavesTheProjectionAndTheNodesComesIn) {
  auto Make = [](Uncovered &X) {
    PhaseStream S;
    S.tuple = ProfileLookup::unit(1024);
    S.handoverShare = 0.5;
    X.F.phases[1].streams = {S};
    X.F.phases[1].invocations = 100;
    X.L.Rows.push_back({"bn", HandOverUBench, 2, 1024, 0.01 + 2.5 / 8});
    X.L.Rows.push_back({"bn", HandKeepUBench, 2, 1024, 0.01});
    X.L.Rows.push_back({"tn", HandOverUBench, 2, 1024, 0.01 + 0.5 / 8});
    X.L.Rows.push_back({"tn", HandKeepUBench, 2, 1024, 0.01});
    X.L.Rows.push_back({"one", "k", 1, 256, 1});
  };
  EXPECT_NEAR(handedLines(Phase{}), 0, 0);
  Uncovered X(1);
  Make(X);
  EXPECT_NEAR(handedLines(X.F.phases[1]), 819200, 1e-9) << "8192 an invocation, 100 invocations";
  EXPECT_NEAR(handOverFootprintKiB(X.F.phases[1]), 1024, 1e-9);
  auto Priced = [](const Uncovered &U, std::vector<std::string> Nodes, ThreadProjection T) {
    return estimate(U.F, U.M, U.L, "bn", Nodes, T, Projection::Absolute, SyncRule::Barriers,
                    UncoveredRule::Kept, PaddedRatio::Family, PaddingAcross::Mix,
                    SyncSweeps::Interval, HandOverRule::Priced);
  };
  Estimate E = Priced(X, {"tn", "one"}, ThreadProjection::native());
  EXPECT_NEAR(E.handedLines, 819200, 1e-6);
  EXPECT_EQ(E.handOverPhases, 1u);
  EXPECT_NEAR(node(E, "bn").handOverS, 0, 0) << "the base node gets its measurement back";
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 4, 1e-9);
  const NodeEstimate &Tn = node(E, "tn");
  EXPECT_NEAR(Tn.phases[0].handOverS, 0.2048 - 2 * 1.024, 1e-9);
  EXPECT_NEAR(Tn.phases[0].timeS, 8 + 0.2048 - 2 * 1.024, 1e-9);
  EXPECT_NEAR(Tn.handOverS, Tn.phases[0].handOverS, 1e-12);
  EXPECT_NEAR(Tn.handOverCostUs, 0.5, 1e-12);
  const NodeEstimate &One = node(E, "one");
  EXPECT_NEAR(One.phases[0].handOverS, -2 * 1.024, 1e-9) << "8 s projected, none handed over";
  EXPECT_NEAR(One.handOverCostUs, 0, 0);
  // HandOverRule::Kept, the default: METHOD.md's estimate, hand-overs inside
  // the times.
  Estimate K = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own());
  EXPECT_EQ(K.handOver, HandOverRule::Kept);
  EXPECT_EQ(K.handOverPhases, 0u);
  EXPECT_NEAR(node(K, "tn").phases[0].timeS, 8, 1e-9);
  // A node without the pair keeps them in the projection and says so.
  Uncovered Y(1);
  Make(Y);
  Y.dropProfiles("tn", HandKeepUBench);
  Estimate F = Priced(Y, {"tn"}, ThreadProjection::own());
  EXPECT_NEAR(node(F, "tn").phases[0].timeS, 8, 1e-9);
  EXPECT_EQ(node(F, "tn").handOverUnpriced, 1u);
}

// Invocations: inv1p (every sweep an omp for invocation) against mbw1p.
// Phase a (a worksharing loop, 4 s, matched on k) runs 10^6 invocations: on
// bn each costs 1 us, so 1 s of a's base time was fixed cost, which the
// projection made 2 s on tn (k 2x slower there), where an invocation costs
// 0.5 us; at one thread ("one") k projects a to 8 s and an invocation costs
// 0.25 us.
TEST(Invocations, TheBaseFixedTimeLeavesTheProjectionAndTheNodesComesIn) {
  auto Make = [](Uncovered &X) {
    X.F.phases[1].invocations = 1000000;
    X.L.pair("bn", 2, 16, 0.01, 1.0, InvocationUBench);
    X.L.pair("tn", 2, 16, 0.01, 0.5, InvocationUBench);
    X.L.Rows.push_back({"one", "k", 1, 256, 1});
    X.L.pair("one", 1, 16, 0.01, 0.25, InvocationUBench);
  };
  auto Priced = [](const Uncovered &U, std::vector<std::string> Nodes, ThreadProjection T) {
    return estimate(U.F, U.M, U.L, "bn", Nodes, T, Projection::Absolute, SyncRule::Barriers,
                    UncoveredRule::Kept, PaddedRatio::Family, PaddingAcross::Mix,
                    SyncSweeps::Interval, HandOverRule::Kept, OtherCpuProfile::Ranked,
                    InvocationRule::Priced);
  };
  Uncovered X(1);
  Make(X);
  EXPECT_TRUE(pricesInvocations(X.F.phases[1]));
  EXPECT_FALSE(pricesInvocations(X.F.phases[0])) << "a region: its forks are not this";
  Estimate E = Priced(X, {"tn", "one"}, ThreadProjection::native());
  EXPECT_EQ(E.invocations, InvocationRule::Priced);
  EXPECT_EQ(E.invocationPhases, 1u);
  EXPECT_NEAR(E.invocationCount, 1e6, 0);
  EXPECT_NEAR(E.invocationBaseCostUs, 1, 1e-9);
  EXPECT_NEAR(node(E, "bn").phases[0].timeS, 4, 1e-9) << "the base node gets its measurement back";
  EXPECT_NEAR(node(E, "bn").invocationS, 0, 0);
  const NodeEstimate &Tn = node(E, "tn");
  EXPECT_NEAR(Tn.phases[0].invocationS, 0.5 - 2 * 1, 1e-9);
  EXPECT_NEAR(Tn.phases[0].timeS, 8 + 0.5 - 2, 1e-9);
  EXPECT_NEAR(Tn.invocationS, Tn.phases[0].invocationS, 1e-12);
  EXPECT_NEAR(Tn.invocationCostUs, 0.5, 1e-9);
  const NodeEstimate &One = node(E, "one");
  EXPECT_NEAR(One.phases[0].timeS, 8 + 0.25 - 2, 1e-9)
      << "every thread enters every invocation: as many at one thread";
  // The default prices them; InvocationRule::Kept is METHOD.md's estimate.
  EXPECT_NEAR(
      node(estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own()), "tn").phases[0].timeS,
      6.5, 1e-9);
  Estimate K = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(), Projection::Absolute,
                        SyncRule::Barriers, UncoveredRule::Kept, PaddedRatio::Family,
                        PaddingAcross::Mix, SyncSweeps::Interval, HandOverRule::Kept,
                        OtherCpuProfile::Ranked, InvocationRule::Kept);
  EXPECT_EQ(K.invocations, InvocationRule::Kept);
  EXPECT_EQ(K.invocationPhases, 0u);
  EXPECT_NEAR(node(K, "tn").phases[0].timeS, 8, 1e-9);
  // A node without the pair keeps them in the projection and says so.
  Uncovered Y(1);
  Make(Y);
  Y.dropProfiles("tn", InvocationUBench);
  Estimate F = Priced(Y, {"tn"}, ThreadProjection::own());
  EXPECT_NEAR(node(F, "tn").phases[0].timeS, 8, 1e-9);
  EXPECT_EQ(node(F, "tn").invocationUnpriced, 1u);
  // The base fixed time is at most the phase's work.
  Uncovered Z(1);
  Make(Z);
  Z.F.phases[1].invocations = 10000000; // 10 s of 1 us invocations in a 4 s phase
  Estimate G = Priced(Z, {"tn"}, ThreadProjection::own());
  EXPECT_NEAR(node(G, "tn").phases[0].timeS, 8 + 5 - 2 * 4, 1e-9);
}

// An unmatched worksharing phase (b, 3 s, 10^6 invocations) is in its
// region's uncovered time: its base fixed time (1 s at 1 us) stays there,
// kept or not scaled with the region's work, and the node's cost (0.5 us)
// replaces it, as the synchronization term does the region's barriers.
TEST(Invocations, AnUnmatchedPhasesFixedTimeIsPricedInTheUncoveredTime) {
  auto Make = [](Uncovered &X) {
    X.F.phases[2].invocations = 1000000;
    X.L.pair("bn", 2, 16, 0.01, 1.0, InvocationUBench);
    X.L.pair("tn", 2, 16, 0.01, 0.5, InvocationUBench);
  };
  auto Priced = [](const Uncovered &U, UncoveredRule Rule) {
    return estimate(U.F, U.M, U.L, "bn", {"tn"}, ThreadProjection::own(), Projection::Absolute,
                    SyncRule::Barriers, Rule, PaddedRatio::Family, PaddingAcross::Mix,
                    SyncSweeps::Interval, HandOverRule::Kept, OtherCpuProfile::Ranked,
                    InvocationRule::Priced);
  };
  Uncovered X(1);
  Make(X);
  Estimate E = Priced(X, UncoveredRule::Kept);
  EXPECT_EQ(E.invocationPhases, 1u);
  EXPECT_EQ(E.invocationUnmatchedPhases, 1u);
  EXPECT_NEAR(E.invocationCount, 1e6, 0);
  EXPECT_NEAR(node(E, "bn").uncoveredS, 6, 1e-9) << "the base node keeps its measurement";
  EXPECT_NEAR(node(E, "bn").invocationS, 0, 0);
  const NodeEstimate &Tn = node(E, "tn");
  EXPECT_NEAR(Tn.invocationUnmatchedS, 0.5 - 1, 1e-9);
  EXPECT_NEAR(Tn.invocationS, Tn.invocationUnmatchedS, 1e-12) << "a has no invocations";
  EXPECT_NEAR(Tn.invocationCostUs, 0.5, 1e-9);
  EXPECT_NEAR(Tn.uncoveredS, 6 - 0.5, 1e-9);
  EXPECT_NEAR(Tn.timeS, 8 + 5.5 + 0.04, 1e-9);
  // Scaled: r's 4 s less its barriers (1 ms) and b's fixed time (1 s)
  // follow a (x2); the fixed time is the node's.
  Estimate S = Priced(X, UncoveredRule::Scaled);
  EXPECT_NEAR(node(S, "tn").uncoveredS, 1 + 1 + 4 + 2.999 - 0.5, 1e-9);
  // Kept: no change; a node without the pair keeps the fixed time as measured.
  Estimate K = estimate(X.F, X.M, X.L, "bn", {"tn"}, ThreadProjection::own(), Projection::Absolute,
                        SyncRule::Barriers, UncoveredRule::Kept, PaddedRatio::Family,
                        PaddingAcross::Mix, SyncSweeps::Interval, HandOverRule::Kept,
                        OtherCpuProfile::Ranked, InvocationRule::Kept);
  EXPECT_EQ(K.invocationPhases, 0u);
  EXPECT_NEAR(node(K, "tn").uncoveredS, 6, 1e-9);
  Uncovered Y(1);
  Make(Y);
  Y.dropProfiles("tn", InvocationUBench);
  Estimate F = Priced(Y, UncoveredRule::Kept);
  EXPECT_NEAR(node(F, "tn").uncoveredS, 6, 1e-9);
  EXPECT_EQ(node(F, "tn").invocationUnpriced, 1u);
  // A base fixed time beyond the phase's time is capped at it.
  Uncovered Z(1);
  Make(Z);
  Z.F.phases[2].invocations = 10000000; // 10 s of 1 us invocations in a 3 s phase
  EXPECT_NEAR(node(Priced(Z, UncoveredRule::Kept), "tn").uncoveredS, 6 - 3 + 5, 1e-9);
}

TEST(Invocations, RuleNamesParse) {
  EXPECT_EQ(parseInvocationRule("priced"), InvocationRule::Priced);
  EXPECT_EQ(parseInvocationRule("kept"), InvocationRule::Kept);
  EXPECT_FALSE(parseInvocationRule("scaled"));
  EXPECT_STREQ(invocationRuleName(InvocationRule::Priced), "priced");
  EXPECT_STREQ(syncUBenchName(SyncKind::Invocation), "inv1p");
  Phase P;
  for (const char *K : {"for", "sections", "distribute"}) {
    P.kind = K;
    EXPECT_TRUE(pricesInvocations(P)) << K;
  }
  for (const char *K : {"parallel", "parallel for", "single", "master"}) {
    P.kind = K;
    EXPECT_FALSE(pricesInvocations(P)) << K;
  }
}
