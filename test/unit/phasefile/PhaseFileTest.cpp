//===- PhaseFileTest.cpp - phaseprobe.phases/1 reading and validation -----===//
//
// The minimal hand-written form must be accepted, every malformed field must
// be rejected with the file and the JSON path in the message, and a write /
// read round trip must keep the meaning.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/phase_file.h"
#include "phaseprobe/phase_runs.h"

#include <gtest/gtest.h>

using namespace phaseprobe;

namespace {

const char *Minimal = R"({
  "schema": "phaseprobe.phases/1",
  "program": {"total_time_s": 216.0614, "threads": 4},
  "phases": [
    {"id": "mm", "threads": 4, "time_s": 212.0254, "iterations": 16000000000,
     "tpi_us": 0.01325,
     "streams": [
       {"footprint_kib": 3906, "stride_bytes": 8, "elem_bytes": 8, "access": "private"},
       {"footprint_kib": 15624, "stride_bytes": 32000, "elem_bytes": 8, "access": "shared"}
     ]}
  ]
})";

std::string errorOf(const std::string &Text) {
  try {
    parsePhaseFile(Text, "in.json");
  } catch (const InputError &E) {
    return E.what();
  }
  return "(no error)";
}

std::string replaced(std::string S, const std::string &From, const std::string &To) {
  auto Pos = S.find(From);
  EXPECT_NE(Pos, std::string::npos) << From;
  return S.replace(Pos, From.size(), To);
}

} // namespace

TEST(PhaseFile, MinimalFormIsValidAndOptionalFieldsAreDerived) {
  PhaseFile F = parsePhaseFile(Minimal, "in.json");
  EXPECT_EQ(F.schema, "phaseprobe.phases/1");
  EXPECT_DOUBLE_EQ(F.program.totalTimeS, 216.0614);
  EXPECT_EQ(F.program.threads, 4u);
  ASSERT_EQ(F.phases.size(), 1u);
  const Phase &P = F.phases[0];
  EXPECT_EQ(P.threads, 4u);
  EXPECT_DOUBLE_EQ(P.iterations, 16e9);
  EXPECT_FALSE(P.weight.has_value());
  EXPECT_NEAR(phaseWeight(P, F.program), 212.0254 / 216.0614, 1e-12);
  EXPECT_FALSE(P.parent.has_value());
  ASSERT_EQ(P.streams.size(), 2u);
  EXPECT_EQ(P.streams[0].id, "v1"); // derived from the position
  EXPECT_EQ(P.streams[1].id, "v2");
  EXPECT_EQ(P.streams[0].tuple.access, Access::Private);
  EXPECT_FALSE(P.streams[0].significant.has_value());
  EXPECT_EQ(leafPhases(F), std::vector<size_t>{0});
}

TEST(PhaseFile, SignificanceFromL1dWhenAbsent) {
  PhaseStream S;
  S.tuple.footprintKiB = 32;
  EXPECT_FALSE(isSignificantStream(S, 32)); // strictly greater than L1d
  S.tuple.footprintKiB = 32.5;
  EXPECT_TRUE(isSignificantStream(S, 32));
  S.tuple.footprintKiB = 1;
  EXPECT_TRUE(isSignificantStream(S, 0)); // unknown L1d: everything counts
  S.significant = true;
  EXPECT_TRUE(isSignificantStream(S, 48));
  S.significant = false;
  S.tuple.footprintKiB = 1e6;
  EXPECT_FALSE(isSignificantStream(S, 48)); // the stored flag wins
}

TEST(PhaseFile, ErrorsNameTheFileAndTheJsonPath) {
  EXPECT_EQ(errorOf(replaced(Minimal, "\"stride_bytes\": 32000", "\"stride_bytes\": \"x\"")),
            "in.json: phases[0].streams[1].stride_bytes: expected a number, found a string");
  EXPECT_EQ(errorOf(replaced(Minimal, "phaseprobe.phases/1", "phaseprobe.phases/2")),
            "in.json: schema: 'phaseprobe.phases/2' is not phaseprobe.phases/1");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"threads\": 4}", "\"threads\": 0}")),
            "in.json: program.threads: expected a positive integer, found 0");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"tpi_us\": 0.01325,", "")),
            "in.json: phases[0].tpi_us: missing (required)");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"access\": \"shared\"", "\"access\": \"global\"")),
            "in.json: phases[0].streams[1].access: 'global' is neither \"shared\" nor \"private\"");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"elem_bytes\": 8, \"access\": \"private\"",
                             "\"elem_bytes\": 7.5, \"access\": \"private\"")),
            "in.json: phases[0].streams[0].elem_bytes: expected a non-negative integer, found 7.5");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"footprint_kib\": 0")),
            "in.json: phases[0].streams[0].footprint_kib: must be > 0, found 0");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"time_s\": 212.0254", "\"time_s\": -1")),
            "in.json: phases[0].time_s: must be >= 0, found -1");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"streams\": [", "\"streams\": 5, \"x\": [")),
            "in.json: phases[0].streams: expected an array, found a number");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"threads\": 4}", "\"threads\": 4, \"thread_branches\": {}}")),
            "in.json: program.thread_branches: expected an array, found an object");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"threads\": 4}", "\"threads\": 4, \"thread_branches\": [3]}")),
            "in.json: program.thread_branches[0]: expected a string, found a number");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"threads\": 4}", "\"threads\": 4, \"thread_branches\": [\"a.c:1:2 (threads > x)\"]}")),
            "in.json: program.thread_branches[0]: 'a.c:1:2 (threads > x)' ends in a malformed test "
            "(expected \" (threads OP N)\", OP one of > >= < <= == !=, N an integer)");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"accesses_per_iteration\": -0.5, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].accesses_per_iteration: must be >= 0, found -0.5");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"accesses_per_execution\": -1, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].accesses_per_execution: must be >= 0, found -1");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"pattern\": \"zigzag\", \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].pattern: 'zigzag' is not strided or random");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"window_accesses\": 0, \"window_repeats\": 3, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].window_accesses: must be >= 1, found 0");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"jump_share\": 1.2, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].jump_share: must be within 0 to 1, found 1.2");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"jump_share\": -1, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].jump_share: must be >= 0, found -1");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"handover_share\": 1.5, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].handover_share: must be within 0 to 1, found 1.5");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"handover_share\": -0.1, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].handover_share: must be >= 0, found -0.1");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"handover_rounds\": 4, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].handover_rounds: comes with handover_share");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"handover_share\": 0.5, \"handover_rounds\": -1, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].handover_rounds: must be >= 0, found -1");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"footprint_kib\": 3906", "\"window_repeats\": 3, \"footprint_kib\": 3906")),
            "in.json: phases[0].streams[0].window_repeats: window_accesses and window_repeats come together");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"tpi_us\": 0.01325,", "\"tpi_us\": 0.01325, \"thread_time_s\": 3,")),
            "in.json: phases[0].thread_time_s: expected an object, found a number");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"tpi_us\": 0.01325,", "\"tpi_us\": 0.01325, \"thread_time_s\": {\"min\": 1, \"median\": 2},")),
            "in.json: phases[0].thread_time_s.max: missing (required)");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"tpi_us\": 0.01325,", "\"tpi_us\": 0.01325, \"thread_time_s\": {\"min\": 1, \"median\": 3, \"max\": 2},")),
            "in.json: phases[0].thread_time_s: expected min <= median <= max");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"threads\": 4}", "\"threads\": 4, \"threads_share_cpus\": 1}")),
            "in.json: program.threads_share_cpus: expected true or false, found a number");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"threads\": 4}", "\"threads\": 4, \"page_faults\": -3}")),
            "in.json: program.page_faults: expected a non-negative integer, found -3");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"tpi_us\": 0.01325,", "\"tpi_us\": 0.01325, \"ops\": [1],")),
            "in.json: phases[0].ops: expected an object, found an array");
  EXPECT_EQ(errorOf(replaced(Minimal, "\"tpi_us\": 0.01325,", "\"tpi_us\": 0.01325, \"ops\": {\"add\": -2},")),
            "in.json: phases[0].ops.add: expected a non-negative integer, found -2");
  EXPECT_EQ(errorOf("[1, 2]"), "in.json: expected a JSON object, found an array");
  EXPECT_EQ(errorOf("{\"program\": {}}"), "in.json: schema: missing (required)");
}

TEST(PhaseFile, MalformedJsonNamesLineAndColumn) {
  std::string E = errorOf("{\n  \"schema\": \"phaseprobe.phases/1\",\n  \"program\": {,}\n}");
  EXPECT_EQ(E.rfind("in.json: line 3, column 15: malformed JSON:", 0), 0u) << E;
  EXPECT_EQ(E.find('\n'), std::string::npos);
  EXPECT_NE(errorOf("").find("malformed JSON"), std::string::npos);
}

TEST(PhaseFile, DuplicateIdsAndDanglingParentsAreRejected) {
  std::string Two = replaced(Minimal, "  ]\n}",
                             "  ,{\"id\": \"mm\", \"threads\": 4, \"time_s\": 1, "
                             "\"iterations\": 1, \"tpi_us\": 1, \"streams\": []}]\n}");
  EXPECT_EQ(errorOf(Two), "in.json: phases[1].id: phase id 'mm' appears twice");
  std::string Dangling = replaced(Minimal, "\"id\": \"mm\",", "\"id\": \"mm\", \"parent\": \"r\",");
  EXPECT_EQ(errorOf(Dangling), "in.json: phases[0].parent: no phase has the id 'r'");
  std::string DupStream = replaced(
      replaced(Minimal, "{\"footprint_kib\": 3906", "{\"id\": \"a\", \"footprint_kib\": 3906"),
      "{\"footprint_kib\": 15624", "{\"id\": \"a\", \"footprint_kib\": 15624");
  EXPECT_EQ(errorOf(DupStream),
            "in.json: phases[0].streams[1].id: stream id 'a' appears twice in the phase");
}

TEST(PhaseFile, LeavesAreWorksharingPhasesAndRegionsWithoutThem) {
  PhaseFile F;
  auto Add = [&](const std::string &Id, const std::string &Kind,
                 std::optional<std::string> Parent) {
    Phase P;
    P.id = Id;
    P.kind = Kind;
    P.parent = std::move(Parent);
    F.phases.push_back(P);
  };
  Add("r1", "parallel", std::nullopt);      // has children: not a leaf
  Add("f1", "for", std::string("r1"));      // leaf
  Add("s1", "single", std::string("r1"));   // leaf
  Add("r2", "parallel for", std::nullopt);  // no children: leaf
  Add("r3", "", std::nullopt);              // kind unknown, no children: leaf
  Add("n1", "parallel", std::string("r2")); // nested region with a child: not a leaf
  Add("f2", "for", std::string("n1"));      // leaf
  EXPECT_EQ(leafPhases(F), (std::vector<size_t>{1, 2, 4, 6}));
}

TEST(PhaseFile, RoundTripKeepsMeaning) {
  PhaseFile F = parsePhaseFile(Minimal, "in.json");
  F.phases[0].streams[0].significant = true;
  F.phases[0].streams[0].sites = {"mm.c:45:12"};
  F.phases[0].kind = "parallel for";
  F.node = NodeInfo{};
  F.node->label = "bn";
  F.node->l1dKiB = 32;
  F.program.threadBranches = {"lulesh.cc:514:7 (threads > 1)", "lulesh.cc:737:8"};
  F.program.threadBranchesMore = 3;
  F.phases[0].spinRounds = 39;
  F.phases[0].pageFaults = 83353;
  F.phases[0].runsIf = {*parseThreadTestText("threads > 1"), *parseThreadTestText("threads != 4")};
  F.phases[0].guardedPageFaults = {{{*parseThreadTestText("threads > 1")}, 83000}};
  F.program.guardedSerial = {{{*parseThreadTestText("threads > 1")}, 0.033}};
  F.phases[0].streams[0].accessesPerIter = 0.181;
  F.phases[0].streams[0].accessesPerExec = 64;
  F.phases[0].streams[0].random = true;
  F.phases[0].streams[0].windowAccesses = 1000;
  F.phases[0].streams[0].windowRepeats = 987.5;
  F.phases[0].streams[0].jumpShare = 0.03125;
  F.phases[0].streams[0].handoverShare = 0.52;
  F.phases[0].streams[0].handoverRounds = 401;
  F.phases[0].threadTimeS = Phase::ThreadTimes{200.5, 201, 211.5};
  F.program.threadsShareCpus = false;
  F.program.threadsFloat = true;
  F.program.pageFaults = 14224;
  F.phases[0].ops = OpCounts{9, 10, 1, 1, 0};
  PhaseFile G = parsePhaseFile(formatPhaseFile(F), "out.json");
  ASSERT_TRUE(G.phases[0].ops);
  EXPECT_EQ(G.phases[0].ops->mul, 10);
  EXPECT_EQ(G.phases[0].ops->sqrt, 1);
  EXPECT_NE(formatPhaseFile(G).find("\"ops\": {\n        \"add\": 9,"), std::string::npos)
      << formatPhaseFile(G);
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").phases[0].ops) << "absent: unknown";
  EXPECT_EQ(formatPhaseFile(G), formatPhaseFile(F));
  ASSERT_TRUE(G.phases[0].threadTimeS);
  EXPECT_EQ(G.phases[0].threadTimeS->maxS, 211.5);
  EXPECT_EQ(G.phases[0].threadTimeS->minS, 200.5);
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").phases[0].threadTimeS) << "absent: unknown";
  EXPECT_EQ(G.program.threadsShareCpus, std::optional<bool>(false));
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").program.threadsShareCpus) << "absent: unknown";
  EXPECT_EQ(G.program.threadsFloat, std::optional<bool>(true));
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").program.threadsFloat) << "absent: unknown";
  EXPECT_EQ(G.program.pageFaults, std::optional<std::uint64_t>(14224));
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").program.pageFaults) << "absent: unknown";
  EXPECT_EQ(G.phases[0].streams[0].significant, std::optional<bool>(true));
  EXPECT_EQ(G.phases[0].kind, "parallel for");
  ASSERT_TRUE(G.node.has_value());
  EXPECT_EQ(G.node->label, "bn");
  EXPECT_DOUBLE_EQ(G.node->l1dKiB, 32);
  EXPECT_FALSE(G.phases[0].weight.has_value());
  EXPECT_EQ(G.phases[0].streams[1].tuple, F.phases[0].streams[1].tuple);
  EXPECT_EQ(G.program.threadBranches, F.program.threadBranches);
  EXPECT_EQ(G.program.threadBranchesMore, 3u);
  EXPECT_EQ(G.phases[0].spinRounds, std::optional<std::uint64_t>(39));
  EXPECT_NE(formatPhaseFile(G).find("\"spin_rounds\": 39"), std::string::npos);
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").phases[0].spinRounds) << "absent: none";
  EXPECT_EQ(G.phases[0].pageFaults, std::optional<std::uint64_t>(83353));
  EXPECT_FALSE(parsePhaseFile(Minimal, "in.json").phases[0].pageFaults) << "absent: none";
  ASSERT_EQ(G.phases[0].runsIf.size(), 2u);
  EXPECT_EQ(G.phases[0].runsIf[1].op, ThreadTest::Ne);
  EXPECT_NE(formatPhaseFile(G).find("\"runs_if\": [\n        \"threads > 1\",\n        \"threads != 4\"\n      ]"),
            std::string::npos)
      << formatPhaseFile(G);
  EXPECT_TRUE(parsePhaseFile(Minimal, "in.json").phases[0].runsIf.empty()) << "absent: always";
  ASSERT_EQ(G.phases[0].guardedPageFaults.size(), 1u);
  EXPECT_EQ(G.phases[0].guardedPageFaults[0].pageFaults, 83000u);
  EXPECT_EQ(G.phases[0].guardedPageFaults[0].allocatedIf[0].text(), "threads > 1");
  EXPECT_TRUE(parsePhaseFile(Minimal, "in.json").phases[0].guardedPageFaults.empty());
  ASSERT_EQ(G.program.guardedSerial.size(), 1u);
  EXPECT_EQ(G.program.guardedSerial[0].timeS, 0.033);
  EXPECT_EQ(G.program.guardedSerial[0].runsIf[0].text(), "threads > 1");
  EXPECT_TRUE(parsePhaseFile(Minimal, "in.json").program.guardedSerial.empty());
  EXPECT_EQ(G.phases[0].streams[0].accessesPerIter, std::optional<double>(0.181));
  EXPECT_FALSE(G.phases[0].streams[1].accessesPerIter) << "absent: unknown";
  EXPECT_EQ(G.phases[0].streams[0].accessesPerExec, std::optional<double>(64));
  EXPECT_FALSE(G.phases[0].streams[1].accessesPerExec);
  EXPECT_TRUE(G.phases[0].streams[0].random);
  EXPECT_FALSE(G.phases[0].streams[1].random) << "absent: strided";
  EXPECT_EQ(G.phases[0].streams[0].windowRepeats, std::optional<double>(987.5));
  EXPECT_EQ(G.phases[0].streams[0].jumpShare, std::optional<double>(0.03125));
  EXPECT_FALSE(G.phases[0].streams[1].jumpShare) << "absent: not measured";
  EXPECT_EQ(G.phases[0].streams[0].windowAccesses, std::optional<double>(1000));
  EXPECT_FALSE(G.phases[0].streams[1].windowRepeats) << "absent: no reuse seen";
  EXPECT_EQ(G.phases[0].streams[0].handoverShare, std::optional<double>(0.52));
  EXPECT_EQ(G.phases[0].streams[0].handoverRounds, std::optional<double>(401));
  EXPECT_FALSE(G.phases[0].streams[1].handoverRounds);
  EXPECT_FALSE(G.phases[0].streams[1].handoverShare) << "absent: not known";
}

namespace {

PhaseFile run(double Total, std::vector<std::pair<std::string, double>> Phases,
              const std::string &Arg = "64") {
  PhaseFile F;
  F.schema = PhaseFileSchema;
  F.program.name = "bt";
  F.program.argv = {"./bt", Arg};
  F.program.threads = 2;
  F.program.totalTimeS = Total;
  for (auto &[Id, T] : Phases) {
    Phase P;
    P.id = Id;
    P.threads = 2;
    P.timeS = T;
    P.iterations = 1000;
    P.tpiUs = T * 1e6 / 1000;
    P.invocations = 10;
    P.barriers = 20;
    P.weight = T / Total;
    PhaseStream S;
    S.id = "v1";
    S.tuple.footprintKiB = T * 100; // tells which run a phase's streams came from
    P.streams = {S};
    F.phases.push_back(P);
  }
  return F;
}

} // namespace

// Several base runs: per-phase medians, tpi and weight recomputed, the
// streams of the median run, phases missing from a run keep the others.
TEST(PhaseRuns, MediansPerPhase) {
  std::vector<PhaseFile> R = {run(2.0, {{"a", 1.0}, {"b", 0.5}}), run(3.0, {{"a", 1.6}}),
                              run(2.2, {{"a", 1.2}, {"b", 0.7}, {"c", 0.1}})};
  PhaseFile M = mergePhaseRuns(R, {"1.json", "2.json", "3.json"});
  EXPECT_EQ(M.program.totalTimeS, 2.2);
  ASSERT_EQ(M.phases.size(), 3u);
  EXPECT_EQ(M.phases[0].id, "a");
  EXPECT_EQ(M.phases[0].timeS, 1.2);
  EXPECT_NEAR(M.phases[0].tpiUs, 1.2e6 / 1000, 1e-9);
  EXPECT_NEAR(*M.phases[0].weight, 1.2 / 2.2, 1e-12);
  EXPECT_EQ(M.phases[0].streams[0].tuple.footprintKiB, 120) << "the median run's streams";
  EXPECT_EQ(M.phases[1].id, "b");
  EXPECT_NEAR(M.phases[1].timeS, 0.6, 1e-12) << "even count: mean of the middle two";
  EXPECT_EQ(M.phases[1].streams[0].tuple.footprintKiB, 50) << "the lower median's";
  EXPECT_EQ(M.phases[2].timeS, 0.1);
  EXPECT_EQ(*M.phases[0].barriers, 20u);
  EXPECT_FALSE(M.phases[0].spinRounds) << "no run spun";
  // Spin-wait rounds: a median over the runs, a run without them counting 0.
  R[0].phases[0].spinRounds = 30;
  R[1].phases[0].spinRounds = 39;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[0].spinRounds,
            std::optional<std::uint64_t>(30));
  R[1].phases[0].spinRounds.reset();
  EXPECT_FALSE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[0].spinRounds);
  // Page faults the same way.
  R[0].phases[0].pageFaults = 900;
  R[2].phases[0].pageFaults = 1000;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[0].pageFaults,
            std::optional<std::uint64_t>(900));
  // Guarded faults per set of tests too (a run without them counts 0), and
  // never more than the merged page_faults.
  ThreadTest Gt1 = *parseThreadTestText("threads > 1");
  R[0].phases[0].guardedPageFaults = {{{Gt1}, 800}};
  R[2].phases[0].guardedPageFaults = {{{Gt1}, 950}};
  PhaseFile G = mergePhaseRuns(R, {"1.json", "2.json", "3.json"});
  ASSERT_EQ(G.phases[0].guardedPageFaults.size(), 1u);
  EXPECT_EQ(G.phases[0].guardedPageFaults[0].pageFaults, 800u);
  EXPECT_EQ(G.phases[0].guardedPageFaults[0].allocatedIf[0].text(), "threads > 1");
  R[1].phases[0].pageFaults = 1000;
  R[1].phases[0].guardedPageFaults = {{{Gt1}, 1000}};
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[0].guardedPageFaults[0].pageFaults,
            950u)
      << "the median of 800, 1000 and 950, within page_faults' 1000";
  // Guarded serial time: the median over the runs, a run without it 0.
  R[0].program.guardedSerial = {{{Gt1}, 0.03}};
  R[2].program.guardedSerial = {{{Gt1}, 0.04}};
  PhaseFile S = mergePhaseRuns(R, {"1.json", "2.json", "3.json"});
  ASSERT_EQ(S.program.guardedSerial.size(), 1u);
  EXPECT_EQ(S.program.guardedSerial[0].timeS, 0.03);
  R[2].program.guardedSerial.clear();
  EXPECT_TRUE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.guardedSerial.empty());
  R[0].phases[0].guardedPageFaults.clear();
  R[1].phases[0].guardedPageFaults.clear();
  EXPECT_TRUE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[0].guardedPageFaults.empty())
      << "a median of 0 is none";
  // Per-thread times: each a median over the runs that wrote them.
  R[0].phases[0].threadTimeS = Phase::ThreadTimes{0.5, 0.7, 0.9};
  R[2].phases[0].threadTimeS = Phase::ThreadTimes{0.3, 0.8, 1.1};
  std::optional<Phase::ThreadTimes> TT =
      mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[0].threadTimeS;
  ASSERT_TRUE(TT);
  EXPECT_NEAR(TT->minS, 0.4, 1e-12);
  EXPECT_NEAR(TT->medianS, 0.75, 1e-12);
  EXPECT_NEAR(TT->maxS, 1.0, 1e-12);
  EXPECT_FALSE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).phases[1].threadTimeS);
  // Shared CPUs in any run that says: shared.
  EXPECT_FALSE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.threadsShareCpus);
  R[0].program.threadsShareCpus = false;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.threadsShareCpus,
            std::optional<bool>(false));
  R[2].program.threadsShareCpus = true;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.threadsShareCpus,
            std::optional<bool>(true));
  // Floating threads in any run that says: floating.
  EXPECT_FALSE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.threadsFloat);
  R[1].program.threadsFloat = false;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.threadsFloat,
            std::optional<bool>(false));
  R[0].program.threadsFloat = true;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.threadsFloat,
            std::optional<bool>(true));
  // The program's page faults: the median of the runs that counted them.
  EXPECT_FALSE(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.pageFaults);
  R[0].program.pageFaults = 100;
  R[2].program.pageFaults = 300;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.pageFaults,
            std::optional<std::uint64_t>(200));
  R[1].program.pageFaults = 120;
  EXPECT_EQ(mergePhaseRuns(R, {"1.json", "2.json", "3.json"}).program.pageFaults,
            std::optional<std::uint64_t>(120));
  // One run comes back as it was.
  PhaseFile One = mergePhaseRuns({R[1]}, {"2.json"});
  EXPECT_EQ(One.program.totalTimeS, 3.0);
  EXPECT_EQ(One.phases[0].timeS, 1.6);
}

// The runs' spread, and the leaves it sits in: largest difference first,
// at most three, none under a tenth of the program's; a region with leaves
// inside and a phase of one run only are not listed.
TEST(PhaseRuns, SpreadNamesTheLeavesThatVariedMost) {
  std::vector<PhaseFile> R = {
      run(2.0, {{"r", 1.9}, {"a", 0.2}, {"b", 0.5}, {"c", 0.30}, {"d", 0.10}, {"e", 0.1}}),
      run(3.0, {{"r", 2.9}, {"a", 1.0}, {"b", 0.6}, {"c", 0.36}, {"d", 0.11}, {"f", 0.9}}),
      run(2.2, {{"r", 2.1}, {"a", 0.3}, {"b", 0.9}, {"c", 0.31}, {"d", 0.10}})};
  for (PhaseFile &F : R)
    for (Phase &P : F.phases)
      if (P.id != "r")
        P.parent = "r";
  RunSpread S = runSpread(R);
  EXPECT_EQ(S.totalS, (std::vector<double>{2.0, 3.0, 2.2}));
  EXPECT_EQ(S.medianS, 2.2);
  EXPECT_NEAR(S.spreadPct, 100 / 2.2, 1e-9);
  ASSERT_EQ(S.phases.size(), 2u) << "c's 0.06 s is under a tenth of 1 s; d's too; e and f ran once";
  EXPECT_EQ(S.phases[0].id, "a");
  EXPECT_EQ(S.phases[0].minS, 0.2);
  EXPECT_EQ(S.phases[0].maxS, 1.0);
  EXPECT_EQ(S.phases[1].id, "b");
  // At most three, largest first.
  for (PhaseFile &F : R)
    for (Phase &P : F.phases)
      if (P.id == "c" || P.id == "d")
        P.timeS *= 1 + 3 * F.program.totalTimeS - 6;
  S = runSpread(R);
  ASSERT_EQ(S.phases.size(), 3u);
  EXPECT_EQ(S.phases[0].id, "c") << "0.30-1.44 s";
  EXPECT_EQ(S.phases[1].id, "a");
  EXPECT_EQ(S.phases[2].id, "b") << "0.4 s, d's 0.34 left out";
  // One run: no spread, no phases.
  EXPECT_TRUE(runSpread({R[0]}).phases.empty());
  EXPECT_EQ(runSpread({R[0]}).spreadPct, 0);
}

// Runs made with sampling off beside a sampled one: the times are the
// unsampled runs' (sampling slows the sampled invocations), the streams the
// sampled run's; each timed run alone gets the sampled run's streams.
TEST(PhaseRuns, UnsampledRunsTimeAndSampledRunsShape) {
  PhaseFile Sampled = run(3.0, {{"a", 1.6}, {"b", 0.9}});
  Sampled.program.sampling = true;
  PhaseFile Off1 = run(2.0, {{"a", 1.0}, {"b", 0.5}}), Off2 = run(2.2, {{"a", 1.2}, {"b", 0.7}});
  for (PhaseFile *F : {&Off1, &Off2}) {
    F->program.sampling = false;
    for (Phase &P : F->phases)
      P.streams.clear();
  }
  std::vector<std::string> Paths = {"s.json", "o1.json", "o2.json"};
  PhaseFile M = mergePhaseRuns({Sampled, Off1, Off2}, Paths);
  EXPECT_NEAR(M.program.totalTimeS, 2.1, 1e-12) << "the unsampled runs' median";
  EXPECT_EQ(M.program.sampling, std::optional<bool>(true));
  ASSERT_EQ(M.phases.size(), 2u);
  EXPECT_NEAR(M.phases[0].timeS, 1.1, 1e-12);
  ASSERT_EQ(M.phases[0].streams.size(), 1u);
  EXPECT_EQ(M.phases[0].streams[0].tuple.footprintKiB, 160) << "the sampled run's streams";
  EXPECT_NEAR(M.phases[1].timeS, 0.6, 1e-12);
  std::vector<PhaseFile> T = timedRuns({Sampled, Off1, Off2}, Paths);
  ASSERT_EQ(T.size(), 2u);
  EXPECT_EQ(T[0].program.totalTimeS, 2.0);
  EXPECT_EQ(T[0].phases[0].timeS, 1.0);
  EXPECT_EQ(T[0].phases[0].streams[0].tuple.footprintKiB, 160);
  EXPECT_EQ(T[1].phases[1].timeS, 0.7);
  // All sampled, or none: every run counts, as before.
  EXPECT_EQ(timedRuns({Off1, Off2}, {"o1.json", "o2.json"}).size(), 2u);
  EXPECT_EQ(mergePhaseRuns({Sampled, Sampled}, {"s.json", "t.json"}).program.totalTimeS, 3.0);
  // The field round-trips.
  PhaseFile G = parsePhaseFile(formatPhaseFile(Off1), "o1.json");
  EXPECT_EQ(G.program.sampling, std::optional<bool>(false));
}

TEST(PhaseRuns, OnlyRunsOfOneProgramOnOneNode) {
  auto Err = [](const std::vector<PhaseFile> &R) -> std::string {
    try {
      mergePhaseRuns(R, {"1.json", "2.json"});
    } catch (const InputError &E) {
      return E.what();
    }
    return "no error";
  };
  EXPECT_EQ(Err({run(2, {{"a", 1}}), run(2, {{"a", 1}}, "96")}),
            "2.json: program: not another run of 1.json (arguments './bt 96', not './bt 64'): "
            "only runs of one program on one node are merged");
  PhaseFile Other = run(2, {{"a", 1}});
  Other.program.threads = 4;
  EXPECT_NE(Err({run(2, {{"a", 1}}), Other}).find("(4 threads, not 2)"), std::string::npos);
  Other = run(2, {{"a", 1}});
  Other.program.name = "sp";
  EXPECT_NE(Err({run(2, {{"a", 1}}), Other}).find("(program 'sp', not 'bt')"), std::string::npos);
  PhaseFile A = run(2, {{"a", 1}}), B = run(2, {{"a", 1}});
  A.node = NodeInfo{};
  A.node->label = "bn";
  B.node = NodeInfo{};
  B.node->label = "tn";
  EXPECT_NE(Err({A, B}).find("(node 'tn', not 'bn')"), std::string::npos);
}

// A site's test says at which thread counts its branch goes the way it went
// at the base run's; a site without one says nothing; a site that ends in a
// test the grammar does not allow is refused, not read as a plain site.
TEST(ThreadTest, ASiteEndsInItsTestOrInNone) {
  std::optional<ThreadTest> T;
  ASSERT_TRUE(parseThreadTest("lulesh.cc:540:9 (threads > 1)", T));
  ASSERT_TRUE(T.has_value());
  EXPECT_EQ(T->op, ThreadTest::Gt);
  EXPECT_EQ(T->value, 1);
  EXPECT_FALSE(T->holds(1));
  EXPECT_TRUE(T->holds(2));
  EXPECT_TRUE(T->holds(64));
  ASSERT_TRUE(parseThreadTest("function f (threads != -3)", T));
  ASSERT_TRUE(T.has_value());
  EXPECT_EQ(T->value, -3);
  EXPECT_TRUE(T->holds(1));
  ASSERT_TRUE(parseThreadTest("a.c:1:1 (threads <= 4)", T));
  EXPECT_TRUE(T->holds(4));
  EXPECT_FALSE(T->holds(5));
  ASSERT_TRUE(parseThreadTest("a.c:1:1 (threads == 1)", T));
  EXPECT_TRUE(T->holds(1));
  EXPECT_FALSE(T->holds(2));
  ASSERT_TRUE(parseThreadTest("a.c:1:1 (threads >= 2)", T));
  EXPECT_FALSE(T->holds(1));
  ASSERT_TRUE(parseThreadTest("a.c:1:1 (threads < 2)", T));
  EXPECT_TRUE(T->holds(1));
  ASSERT_TRUE(parseThreadTest("lulesh.cc:540:9", T));
  EXPECT_FALSE(T.has_value());
  EXPECT_FALSE(parseThreadTest("a.c:1:1 (threads > 1", T));
  EXPECT_FALSE(parseThreadTest("a.c:1:1 (threads =< 1)", T));
  EXPECT_FALSE(parseThreadTest("a.c:1:1 (threads > 1x)", T));
  EXPECT_FALSE(parseThreadTest("a.c:1:1 (threads > )", T));
  EXPECT_FALSE(parseThreadTest("a.c:1:1 (threads > 99999999999999999999)", T));
}

// A region's runs_if tests are the same tests without a site around them,
// and print back as they read.
TEST(ThreadTest, RunsIfTextReadsAndPrintsBack) {
  for (const char *Text : {"threads > 1", "threads >= 2", "threads < 8", "threads <= 1",
                           "threads == 1", "threads != -3"}) {
    std::optional<ThreadTest> T = parseThreadTestText(Text);
    ASSERT_TRUE(T.has_value()) << Text;
    EXPECT_EQ(T->text(), Text);
  }
  EXPECT_FALSE(parseThreadTestText("(threads > 1)"));
  EXPECT_FALSE(parseThreadTestText("threads >> 1"));
  EXPECT_FALSE(parseThreadTestText("threads > 1 "));
  EXPECT_FALSE(parseThreadTestText("nthreads > 1"));
  EXPECT_FALSE(parseThreadTestText(""));
}
