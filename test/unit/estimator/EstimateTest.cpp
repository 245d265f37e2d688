//===- EstimateTest.cpp - METHOD.md stage 4 arithmetic and the CI gate ----===//
#include "phaseprobe/error.h"
#include "phaseprobe/estimator.h"

#include <gtest/gtest.h>

#include <map>
#include <tuple>

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
}
