//===- PhaseFileTest.cpp - Unit tests of probes, aggregation and output ---===//
//
// Drives the runtime's entry points by hand (as instrumented code would, on
// real threads) and checks the aggregation rules of runtime/README.md on the
// phase file built in memory; also the output path rules and the atomic
// file writer.
//
//===----------------------------------------------------------------------===//
#include "phase_writer.h"
#include "phaseprobe/interface.h"
#include "runtime.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace __phaseprobe;

namespace {

// Registering constructs makes the runtime write a phase file at exit: keep
// it out of the working directory.
const int RedirectOutput = [] {
  std::string P = std::string(testing::TempDir()) + "unit_runtime.phases.json";
  setenv("PHASEPROBE_OUT", P.c_str(), 1);
  return 0;
}();

__phaseprobe_construct make(uint32_t Kind, uint32_t Line, const char *File) {
  __phaseprobe_construct C{};
  C.kind = Kind;
  C.line = Line;
  C.column = 1;
  C.file = File;
  C.function = "f";
  return C;
}

nlohmann::json phases() {
  JsonWriter W;
  buildPhaseFile(W, 10'000'000'000ull, 1234);
  nlohmann::json J = nlohmann::json::parse(std::string(W.data(), W.size()));
  nlohmann::json ById;
  for (auto &P : J["phases"])
    ById[P["id"].get<std::string>()] = P;
  return ById;
}

void spin(std::chrono::milliseconds D) {
  auto End = std::chrono::steady_clock::now() + D;
  while (std::chrono::steady_clock::now() < End)
    ;
}

// One team member's pass through a region body that runs the loop `Loop`
// twice, each time with `Iters` iterations taking `Busy`. Per-thread sums are
// kept per OS thread, which OpenMP reuses from one invocation to the next.
void member(__phaseprobe_construct *Region, __phaseprobe_construct *Loop, uint64_t Iters,
            std::chrono::milliseconds Busy) {
  __phaseprobe_thread_begin(Region);
  for (int Invocation = 0; Invocation < 2; ++Invocation) {
    __phaseprobe_ws_begin(Loop);
    __phaseprobe_iterations += Iters;
    spin(Busy);
    __phaseprobe_ws_end();
  }
  __phaseprobe_thread_end(Region);
}

TEST(PhaseFile, RegionAndLoopTakeTheSlowestThread) {
  static __phaseprobe_construct C[2] = {make(__PHASEPROBE_PARALLEL, 10, "agg.c"),
                                        make(__PHASEPROBE_FOR, 12, "dir/agg.c")};
  __phaseprobe_register(PHASEPROBE_ABI_VERSION, "agg.c", C, 2, sizeof(__phaseprobe_construct));
  ASSERT_NE(C[0].index, PHASEPROBE_DISABLED);
  __phaseprobe_region_begin(&C[0]);
  // Two team members: one slow with few iterations, one fast with many.
  std::thread Slow(member, &C[0], &C[1], 10, std::chrono::milliseconds(30));
  std::thread Fast(member, &C[0], &C[1], 1000, std::chrono::milliseconds(1));
  Slow.join();
  Fast.join();
  __phaseprobe_region_end(&C[0]);
  nlohmann::json P = phases();
  nlohmann::json R = P["agg.c:10:1"], L = P["agg.c:12:1"];
  EXPECT_EQ(R["kind"], "parallel");
  EXPECT_TRUE(R["parent"].is_null());
  EXPECT_EQ(R["invocations"], 1);
  // The slowest member's iterations (not the busiest member's).
  EXPECT_EQ(R["iterations"], 20);
  EXPECT_GE(R["time_s"].get<double>(), 0.060);
  EXPECT_EQ(L["kind"], "for");
  EXPECT_EQ(L["parent"], "agg.c:10:1");
  EXPECT_EQ(L["file"], "dir/agg.c");
  EXPECT_EQ(L["invocations"], 2);
  EXPECT_EQ(L["iterations"], 20);
  EXPECT_GE(L["time_s"].get<double>(), 0.060);
  EXPECT_LE(L["time_s"].get<double>(), R["time_s"].get<double>());
  EXPECT_LT(L["thread_time_s"]["min"].get<double>(), 0.030);
  EXPECT_DOUBLE_EQ(L["thread_time_s"]["max"].get<double>(), L["time_s"].get<double>());
  EXPECT_NEAR(L["tpi_us"].get<double>(), L["time_s"].get<double>() * 1e6 / 20, 1e-6);
  EXPECT_NEAR(L["weight"].get<double>(), L["time_s"].get<double>() / 10.0, 1e-9);
  EXPECT_EQ(L["streams"], nlohmann::json::array());
}

TEST(PhaseFile, SingleSumsTheExecutingThreads) {
  static __phaseprobe_construct C[1] = {make(__PHASEPROBE_SINGLE, 20, "single.c")};
  __phaseprobe_register(PHASEPROBE_ABI_VERSION, "single.c", C, 1, sizeof(__phaseprobe_construct));
  auto Run = [](bool Executes, uint64_t Iters) {
    __phaseprobe_ws_begin(&C[0]);
    __phaseprobe_ws_entered(Executes);
    if (Executes) {
      __phaseprobe_iterations += Iters;
      __phaseprobe_ws_end();
    }
  };
  std::thread A([&] {
    Run(true, 7);
    Run(false, 0);
  });
  A.join();
  std::thread B([&] {
    Run(false, 0);
    Run(true, 0);
  }); // no loop: counts 1
  B.join();
  nlohmann::json S = phases()["single.c:20:1"];
  EXPECT_EQ(S["kind"], "single");
  EXPECT_EQ(S["invocations"], 2);
  EXPECT_EQ(S["iterations"], 8);
  EXPECT_TRUE(S["parent"].is_null()); // ran outside any region
}

TEST(PhaseFile, DynamicLoopEndsWhenNextReturnsZero) {
  static __phaseprobe_construct C[1] = {make(__PHASEPROBE_FOR, 30, "dyn.c")};
  __phaseprobe_register(PHASEPROBE_ABI_VERSION, "dyn.c", C, 1, sizeof(__phaseprobe_construct));
  std::thread T([] {
    __phaseprobe_ws_begin(&C[0]);
    for (int Chunk = 0; Chunk < 3; ++Chunk) {
      __phaseprobe_ws_next(1);
      __phaseprobe_iterations += 5;
    }
    __phaseprobe_ws_next(0);
    __phaseprobe_iterations += 100; // after the loop: not counted
  });
  T.join();
  nlohmann::json D = phases()["dyn.c:30:1"];
  EXPECT_EQ(D["invocations"], 1);
  EXPECT_EQ(D["iterations"], 15);
}

TEST(PhaseFile, SameLocationInTwoObjectsIsOnePhase) {
  static __phaseprobe_construct A[1] = {make(__PHASEPROBE_PARALLEL_FOR, 40, "inl.h")};
  static __phaseprobe_construct B[1] = {make(__PHASEPROBE_PARALLEL_FOR, 40, "inl.h")};
  __phaseprobe_register(PHASEPROBE_ABI_VERSION, "a.c", A, 1, sizeof(__phaseprobe_construct));
  __phaseprobe_register(PHASEPROBE_ABI_VERSION, "b.c", B, 1, sizeof(__phaseprobe_construct));
  EXPECT_EQ(A[0].index, B[0].index);
}

TEST(PhaseFile, AbiMismatchDisablesEveryConstruct) {
  struct Future {
    uint32_t Index;
    char More[36];
  };
  static Future F[3];
  for (Future &X : F)
    X.Index = 0;
  __phaseprobe_register(PHASEPROBE_ABI_VERSION + 1, "future.c",
                        reinterpret_cast<__phaseprobe_construct *>(F), 3, sizeof(Future));
  for (Future &X : F)
    EXPECT_EQ(X.Index, PHASEPROBE_DISABLED);
  // Probes on a disabled construct do nothing.
  __phaseprobe_ws_begin(reinterpret_cast<__phaseprobe_construct *>(&F[0]));
  __phaseprobe_region_begin(reinterpret_cast<__phaseprobe_construct *>(&F[1]));
}

TEST(PhaseFilePath, PidSubstitutionAndDefault) {
  char Buf[256];
  setenv("PHASEPROBE_OUT", "/tmp/run-%p-%p.json", 1);
  ASSERT_TRUE(phaseFilePath(Buf, sizeof Buf));
  std::string Pid = std::to_string(getpid());
  EXPECT_EQ(std::string(Buf), "/tmp/run-" + Pid + "-" + Pid + ".json");
  EXPECT_FALSE(phaseFilePath(Buf, 8)); // does not fit
  unsetenv("PHASEPROBE_OUT");
  ASSERT_TRUE(phaseFilePath(Buf, sizeof Buf));
  EXPECT_EQ(std::string(Buf), "unit_runtime.phases.json");
  std::string P = std::string(testing::TempDir()) + "unit_runtime.phases.json";
  setenv("PHASEPROBE_OUT", P.c_str(), 1);
}

TEST(AtomicWrite, WritesAndLeavesNoTemporary) {
  std::string Dir = std::string(testing::TempDir()) + "pp_atomic_" + std::to_string(getpid());
  ASSERT_EQ(system(("rm -rf " + Dir + " && mkdir -p " + Dir).c_str()), 0);
  std::string Path = Dir + "/out.json";
  ASSERT_TRUE(writeFileAtomically(Path.c_str(), "{}", 2));
  std::ifstream In(Path);
  std::string Content((std::istreambuf_iterator<char>(In)), std::istreambuf_iterator<char>());
  EXPECT_EQ(Content, "{}\n");
  EXPECT_FALSE(writeFileAtomically((Dir + "/missing/out.json").c_str(), "{}", 2));
  EXPECT_EQ(errno, ENOENT);
  // Only the finished file is left.
  EXPECT_EQ(system(("test $(ls " + Dir + " | wc -l) -eq 1").c_str()), 0);
  (void)system(("rm -rf " + Dir).c_str());
}

} // namespace
