//===- phase_writer.cpp - The phase file (phaseprobe.phases/1) ------------===//
//
// Aggregation (documented in runtime/README.md, "How a phase's numbers are
// made"). Each thread accumulates, per phase, the sum of its shares. Then:
//  - region (parallel, parallel for, parallel sections, teams): time is the
//    fork-to-join time measured by the forking thread, summed over
//    invocations (for a nested region forked by several threads at once, the
//    largest such sum); iterations are those of the team member with the
//    largest summed body time (the slowest thread), per share over that
//    forker's forks where the member served more forks than it made.
//  - for / sections / distribute: time is the largest per-thread sum of
//    shares (the slowest thread), iterations are that thread's. Summing per
//    thread first and taking the maximum second needs no per-invocation
//    synchronization; it never exceeds the sum of per-invocation maxima and
//    equals it when the same thread is the slowest every time. Threads are
//    OS threads, which the OpenMP runtime reuses across invocations.
//  - single / master: exactly one thread executes each invocation, so time,
//    iterations and invocations are sums over the threads that executed it.
// thread_time_s gives min/median/max of the per-thread sums (imbalance).
// barriers (regions only): the barriers the forking thread crossed inside the
// region plus its join, summed over invocations: every team member crosses
// the same ones, and the estimator prices them apart from the work.
// program page_faults: the process's minor page faults from the runtime's
// start to the exit hook, regions' and serial code's; what the regions'
// leave is the serial code's, which the estimator prices across designs.
// page_faults (regions only, when there are any): the process's minor page
// faults during the region's forks, read by the forking thread at fork and
// join; a region whose forks are short stops reading them after its first
// 8 (runtime.cpp, countFaults) and its count is extrapolated to all forks.
// guarded_page_faults (with page_faults, when there are any): those of the
// region's faults that were first touches of memory the program allocated
// only under tests of the thread count (guards.cpp), per set of tests,
// extrapolated like page_faults.
// spin_rounds (regions only, when there are any): the spin-wait rounds of
// the member with most, summed over invocations (runtime.cpp, closeShare).
// On idle cores which member waits at a handoff, and whether any does,
// depends on timing: an LU-shaped pipeline of 39 planes on two idle cores
// counted (by hand, a build that wrote both) 12 to 42 waits over both
// members and 8 to 38 for the one that waited most, where each member
// waited once per plane on one shared core.
// Counted as the worksharing shares that entered a spin loop it is 39.
//
//===----------------------------------------------------------------------===//
#include "phase_writer.h"
#include "guards.h"
#include "node_info.h"
#include "rt_memory.h"
#include "runtime.h"
#include "thread_state.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace __phaseprobe {
namespace {

std::atomic<StreamsWriterFn> StreamsWriter{nullptr};
std::atomic<SamplingQueryFn> SamplingQuery{nullptr};
std::atomic<bool> HookInstalled{false};
std::atomic<bool> Flushed{false};

const char *kindName(uint32_t Kind) {
  switch (Kind) {
  case __PHASEPROBE_PARALLEL:
    return "parallel";
  case __PHASEPROBE_PARALLEL_FOR:
    return "parallel for";
  case __PHASEPROBE_PARALLEL_SECTIONS:
    return "parallel sections";
  case __PHASEPROBE_TEAMS:
    return "teams";
  case __PHASEPROBE_FOR:
    return "for";
  case __PHASEPROBE_SECTIONS:
    return "sections";
  case __PHASEPROBE_SINGLE:
    return "single";
  case __PHASEPROBE_MASTER:
    return "master";
  case __PHASEPROBE_DISTRIBUTE:
    return "distribute";
  }
  return "unknown";
}

bool isRegion(uint32_t Kind) { return Kind >= 1 && Kind <= 4; }
bool splitsIterations(uint32_t Kind) {
  return Kind == __PHASEPROBE_PARALLEL_FOR || Kind == __PHASEPROBE_FOR ||
         Kind == __PHASEPROBE_DISTRIBUTE;
}
bool isOneThread(uint32_t Kind) {
  return Kind == __PHASEPROBE_SINGLE || Kind == __PHASEPROBE_MASTER;
}

const char *baseName(const char *Path) {
  const char *Slash = strrchr(Path, '/');
  return Slash ? Slash + 1 : Path;
}

void phaseId(uint32_t Index, char *Out, size_t Cap) {
  const __phaseprobe_construct *C = construct(Index);
  snprintf(Out, Cap, "%s:%u:%u", baseName(C->file ? C->file : "unknown"), C->line, C->column);
}

struct Summary {
  uint64_t TimeNs = 0, Iterations = 0, Invocations = 0, Barriers = 0, SpinRounds = 0;
  uint64_t Faults = 0, FaultForks = 0; ///< regions: page faults in the forks that counted them
  uint64_t MinNs = 0, MedianNs = 0, MaxNs = 0;
  uint32_t Threads = 0; ///< threads that recorded a share
};

// Collapses the per-thread slots of phase \p P (see the file comment).
Summary summarize(uint32_t P, uint32_t Kind, uint64_t *Scratch, uint32_t ScratchCap) {
  Summary S;
  uint64_t SlowestNs = 0, SlowestShares = 0, TimeForks = 0;
  bool HaveSlowest = false;
  uint32_t N = 0;
  for (ThreadState *T = threadList(); T; T = T->Next) {
    if (P >= T->NumSlots)
      continue;
    const PhaseSlot &Sl = T->Slots[P];
    if (isRegion(Kind)) {
      if (Sl.ForkNs > S.TimeNs) {
        S.TimeNs = Sl.ForkNs;
        TimeForks = Sl.ForkCount;
      }
      S.Invocations += Sl.ForkCount;
      S.Barriers += Sl.ForkBarriers;
      S.Faults += Sl.ForkFaults;
      S.FaultForks += Sl.FaultForks;
    }
    if (!Sl.ShareCount)
      continue;
    S.SpinRounds = std::max(S.SpinRounds, Sl.ShareSpinRounds);
    if (N < ScratchCap)
      Scratch[N++] = Sl.ShareNs;
    if (isOneThread(Kind)) {
      S.TimeNs += Sl.ShareNs;
      S.Iterations += Sl.ShareIters;
      S.Invocations += Sl.ShareCount;
    } else if (!HaveSlowest || Sl.ShareNs > SlowestNs) {
      HaveSlowest = true;
      SlowestNs = Sl.ShareNs;
      SlowestShares = Sl.ShareCount;
      S.Iterations = Sl.ShareIters;
      if (!isRegion(Kind))
        S.TimeNs = Sl.ShareNs;
    }
    if (!isRegion(Kind) && !isOneThread(Kind))
      S.Invocations = std::max(S.Invocations, Sl.ShareCount);
  }
  // A region forked by several threads (nested, or from threads of the
  // program's own) can have a member the OpenMP runtime lent to forks of
  // more than one of them: its shares then span more forks than the time,
  // which is one forker's, covers. Its iterations per share, over the
  // forks the time covers, keep tpi that of one team.
  if (isRegion(Kind) && TimeForks && SlowestShares > TimeForks)
    S.Iterations = uint64_t(double(S.Iterations) * double(TimeForks) / double(SlowestShares) + 0.5);
  S.Threads = N;
  if (N) {
    std::sort(Scratch, Scratch + N);
    S.MinNs = Scratch[0];
    S.MaxNs = Scratch[N - 1];
    S.MedianNs = N % 2 ? Scratch[N / 2] : (Scratch[N / 2 - 1] + Scratch[N / 2]) / 2;
  }
  return S;
}

/// \p Key: an array of the \p N test strings ("threads > 1").
void writeTests(JsonWriter &W, const char *Key, const char *const *Tests, uint32_t N) {
  W.key(Key);
  W.beginArray();
  for (uint32_t I = 0; I < N; ++I)
    W.string(Tests[I]);
  W.endArray();
}

void writeStreams(JsonWriter &W, uint32_t P, bool SplitsIterations) {
  if (StreamsWriterFn Fn = StreamsWriter.load(std::memory_order_acquire)) {
    Fn(W, P, SplitsIterations);
    return;
  }
  W.beginArray();
  W.endArray();
}

/// Whether the threads that ran region bodies had fewer CPUs among them than
/// the largest team had threads (Share), and else whether two of the
/// largest team's threads may run on one CPU, their affinity masks
/// overlapping (Float: unbound teams, places that span cores, libomp's
/// `cores` on a VM that reads two vCPUs as one core's threads): then where
/// they run is the scheduler's choice, not the placement's. 1 yes, 0 no,
/// -1 unknown (none read them).
struct CpuSharing {
  int Share = -1, Float = -1;
};

CpuSharing threadsCpuSharing() {
  cpu_set_t Union;
  CPU_ZERO(&Union);
  bool Any = false;
  for (ThreadState *T = threadList(); T; T = T->Next) {
    if (T->CpusTeam == 0 || T->CpusTeam == ~0u)
      continue;
    CPU_OR(&Union, &Union, &T->Cpus);
    Any = true;
  }
  uint32_t Team = maxTeamSize();
  CpuSharing S;
  if (!Any || Team == 0)
    return S;
  S.Share = uint32_t(CPU_COUNT(&Union)) < Team ? 1 : 0;
  S.Float = 0;
  for (ThreadState *A = threadList(); A && S.Share == 0 && !S.Float; A = A->Next) {
    if (A->CpusTeam != Team)
      continue;
    for (ThreadState *B = A->Next; B && !S.Float; B = B->Next) {
      if (B->CpusTeam != Team)
        continue;
      cpu_set_t Both;
      CPU_AND(&Both, &A->Cpus, &B->Cpus);
      S.Float = CPU_COUNT(&Both) > 0;
    }
  }
  return S;
}

void writeProgram(JsonWriter &W, uint64_t TotalNs, uint64_t Faults) {
  const ProcessInfo &PI = processInfo();
  const char *Argv0 = PI.ArgvLen ? PI.Argv : "";
  W.beginObject();
  W.key("name");
  W.string(*Argv0 ? baseName(Argv0) : "program");
  W.key("argv");
  W.beginArray();
  for (uint32_t Off = 0; Off < PI.ArgvLen;) {
    const char *A = PI.Argv + Off;
    W.string(A);
    Off += static_cast<uint32_t>(strlen(A)) + 1;
  }
  W.endArray();
  W.key("total_time_s");
  W.number(static_cast<double>(TotalNs) * 1e-9);
  W.key("threads");
  uint32_t Team = maxTeamSize();
  W.unsignedInteger(Team ? Team : 1);
  W.key("started");
  W.string(PI.Started);
  W.key("pid");
  W.integer(PI.Pid);
  W.key("page_faults");
  W.unsignedInteger(Faults);
  // Runs without sampling can time a program that sampling slows down,
  // next to a sampled run that gives the streams (core/phase_runs.h).
  if (SamplingQueryFn Q = SamplingQuery.load(std::memory_order_acquire)) {
    W.key("sampling");
    W.boolean(Q());
  }
  if (CpuSharing S = threadsCpuSharing(); S.Share >= 0) {
    W.key("threads_share_cpus");
    W.boolean(S.Share == 1);
    W.key("threads_float");
    W.boolean(S.Float == 1);
  }
  const char *const *Sites = nullptr;
  uint32_t More = 0;
  if (uint32_t N = threadBranches(&Sites, &More)) {
    // Only when there are some: files of programs without stay as they were.
    W.key("thread_branches");
    W.beginArray();
    for (uint32_t I = 0; I < N; ++I)
      W.string(Sites[I]);
    W.endArray();
    if (More) {
      W.key("thread_branches_more");
      W.unsignedInteger(More);
    }
  }
  const char *const *Tests[8];
  uint32_t Counts[8];
  double Seconds[8];
  if (uint32_t N = guardedSerial(Tests, Counts, Seconds, 8)) {
    W.key("guarded_serial");
    W.beginArray();
    for (uint32_t G = 0; G < N; ++G) {
      W.beginObject();
      writeTests(W, "runs_if", Tests[G], Counts[G]);
      W.key("time_s");
      W.number(Seconds[G]);
      W.endObject();
    }
    W.endArray();
  }
  W.endObject();
}

void flushAtExit() {
  if (Flushed.exchange(true))
    return;
  const ProcessInfo &PI = processInfo();
  if (getpid() != PI.Pid)
    return; // a fork child: the parent writes the file
  if (!objectsRegistered())
    return; // the runtime is linked in, but nothing was instrumented
  uint64_t TotalNs = nowNs() - PI.StartNs;
  // Read before the exit analysis and the file's writing touch memory of
  // their own.
  uint64_t Faults = minorFaults() - PI.StartFaults;
  // The sampling cost the main thread took out of its phases is taken out
  // of the program's time too: otherwise it would stay in the time outside
  // the matched phases, which the estimator keeps as measured on every node.
  for (ThreadState *T = threadList(); T; T = T->Next)
    if (T->Starter && T->RemovedNs < TotalNs) {
      TotalNs -= T->RemovedNs;
      if (T->RemovedNs)
        verbose("program time without the sampling overhead: %.6f s (%.6f s removed)",
                double(TotalNs) * 1e-9, double(T->RemovedNs) * 1e-9);
    }
  char Path[4096];
  if (!phaseFilePath(Path, sizeof Path)) {
    warning("phase file path too long; no phase file written");
    return;
  }
  JsonWriter W;
  buildPhaseFile(W, TotalNs, Faults);
  if (!W.ok()) {
    warning("out of memory building the phase file %s; not written", Path);
    return;
  }
  if (!writeFileAtomically(Path, W.data(), W.size())) {
    warning("cannot write the phase file %s: %s", Path, strerror(errno));
    return;
  }
  verbose("wrote %s (%u constructs registered)", Path, phaseCount());
}

} // namespace

void setStreamsWriter(StreamsWriterFn Fn) { StreamsWriter.store(Fn, std::memory_order_release); }

void setSamplingQuery(SamplingQueryFn Fn) { SamplingQuery.store(Fn, std::memory_order_release); }

bool samplingEnabled() {
  // -1: not asked yet. Racing first askers get the same answer.
  static std::atomic<int> Known{-1};
  int K = Known.load(std::memory_order_relaxed);
  if (K < 0) {
    SamplingQueryFn Q = SamplingQuery.load(std::memory_order_acquire);
    K = Q && Q() ? 1 : 0;
    Known.store(K, std::memory_order_relaxed);
  }
  return K == 1;
}

void installExitHook() {
  if (!HookInstalled.exchange(true))
    atexit(flushAtExit);
}

void buildPhaseFile(JsonWriter &W, uint64_t TotalNs, uint64_t PageFaults) {
  uint32_t NumPhases = phaseCount();
  uint32_t NumThreads = 0;
  for (ThreadState *T = threadList(); T; T = T->Next)
    ++NumThreads;
  uint32_t ScratchCap = NumThreads ? NumThreads : 1;
  auto *Scratch = static_cast<uint64_t *>(rtCalloc(ScratchCap, sizeof(uint64_t)));
  if (!Scratch)
    ScratchCap = 0;
  double Total = static_cast<double>(TotalNs) * 1e-9;

  W.setIndentDepth(2);
  W.beginObject();
  W.key("schema");
  W.string("phaseprobe.phases/1");
  W.key("program");
  writeProgram(W, TotalNs, PageFaults);
  W.key("node");
  writeNodeInfo(W);
  W.key("phases");
  W.beginArray();
  char Id[1024];
  for (uint32_t P = 0; P < NumPhases; ++P) {
    const __phaseprobe_construct *C = construct(P);
    Summary S = summarize(P, C->kind, Scratch, ScratchCap);
    if (!S.Invocations)
      continue; // registered but never ran
    W.beginObject();
    phaseId(P, Id, sizeof Id);
    W.key("id");
    W.string(Id);
    W.key("file");
    W.string(C->file ? C->file : "unknown");
    W.key("function");
    W.string(C->function ? C->function : "unknown");
    W.key("line");
    W.unsignedInteger(C->line);
    W.key("column");
    W.unsignedInteger(C->column);
    W.key("kind");
    W.string(kindName(C->kind));
    W.key("parent");
    uint32_t Parent = phaseParent(P);
    if (Parent == NoPhase) {
      W.null();
    } else {
      phaseId(Parent, Id, sizeof Id);
      W.string(Id);
    }
    W.key("invocations");
    W.unsignedInteger(S.Invocations);
    const char *Tests[8];
    if (uint32_t NT = regionGuards(P, Tests, 8))
      writeTests(W, "runs_if", Tests, NT);
    if (isRegion(C->kind)) {
      W.key("barriers");
      W.unsignedInteger(S.Barriers);
      if (S.SpinRounds) {
        W.key("spin_rounds");
        W.unsignedInteger(S.SpinRounds);
      }
    }
    W.key("threads");
    uint32_t Team = phaseTeamSize(P);
    W.unsignedInteger(Team ? Team : 1);
    double Time = static_cast<double>(S.TimeNs) * 1e-9;
    W.key("time_s");
    W.number(Time);
    W.key("weight");
    W.number(Total > 0 ? Time / Total : 0.0);
    W.key("iterations");
    W.unsignedInteger(S.Iterations);
    W.key("tpi_us");
    W.number(S.Iterations ? Time * 1e6 / static_cast<double>(S.Iterations) : 0.0);
    W.key("thread_time_s");
    W.beginObject();
    W.key("min");
    W.number(static_cast<double>(S.MinNs) * 1e-9);
    W.key("median");
    W.number(static_cast<double>(S.MedianNs) * 1e-9);
    W.key("max");
    W.number(static_cast<double>(S.MaxNs) * 1e-9);
    W.endObject();
    if (isRegion(C->kind) && S.Faults && S.FaultForks) {
      // After the keys tests and tools read in sequence: a region faults or
      // not depending on what its first fork finds mapped.
      auto AllForks = [&](uint64_t Counted) {
        return S.FaultForks >= S.Invocations
                   ? Counted
                   : uint64_t(double(Counted) * double(S.Invocations) / double(S.FaultForks) + 0.5);
      };
      uint64_t Faults = AllForks(S.Faults);
      W.key("page_faults");
      W.unsignedInteger(Faults);
      const char *const *Tests[8];
      uint32_t Counts[8];
      uint64_t Guarded[8];
      if (uint32_t NG = guardedFaults(P, Tests, Counts, Guarded, 8)) {
        W.key("guarded_page_faults");
        W.beginArray();
        for (uint32_t G = 0; G < NG; ++G) {
          W.beginObject();
          writeTests(W, "allocated_if", Tests[G], Counts[G]);
          W.key("page_faults");
          uint64_t F = AllForks(Guarded[G]);
          W.unsignedInteger(F < Faults ? F : Faults);
          W.endObject();
        }
        W.endArray();
      }
    }
    // Static, the same in every run; after the keys tests read in sequence.
    uint32_t Ops[PHASEPROBE_OP_KINDS];
    if (opMix(P, Ops)) {
      static const char *const Kinds[PHASEPROBE_OP_KINDS] = {"add", "mul", "div", "sqrt", "math"};
      W.key("ops");
      W.beginObject();
      for (int K = 0; K < PHASEPROBE_OP_KINDS; ++K) {
        W.key(Kinds[K]);
        W.unsignedInteger(Ops[K]);
      }
      W.endObject();
    }
    W.key("streams");
    writeStreams(W, P, splitsIterations(C->kind));
    W.endObject();
  }
  W.endArray();
  W.endObject();
  W.setIndentDepth(0);
  rtFree(Scratch);
}

bool phaseFilePath(char *Out, unsigned long Cap) {
  const char *Env = getenv("PHASEPROBE_OUT");
  unsigned long Len = 0;
  auto Append = [&](const char *S, unsigned long N) {
    if (Len + N + 1 > Cap)
      return false;
    memcpy(Out + Len, S, N);
    Len += N;
    Out[Len] = '\0';
    return true;
  };
  if (Env && *Env) {
    for (const char *P = Env; *P; ++P) {
      if (P[0] == '%' && P[1] == 'p') {
        char Pid[24];
        int N = snprintf(Pid, sizeof Pid, "%d", static_cast<int>(getpid()));
        if (!Append(Pid, static_cast<unsigned long>(N)))
          return false;
        ++P;
      } else if (!Append(P, 1)) {
        return false;
      }
    }
    return true;
  }
  const ProcessInfo &PI = processInfo();
  const char *Name = PI.ArgvLen && *PI.Argv ? baseName(PI.Argv) : "program";
  return Append(Name, strlen(Name)) && Append(".phases.json", 12);
}

bool writeFileAtomically(const char *Path, const char *Data, unsigned long Len) {
  char Tmp[4200];
  if (snprintf(Tmp, sizeof Tmp, "%s.tmp.%d", Path, static_cast<int>(getpid())) >=
      static_cast<int>(sizeof Tmp)) {
    errno = ENAMETOOLONG;
    return false;
  }
  int Fd = open(Tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (Fd < 0)
    return false;
  unsigned long Done = 0;
  while (Done < Len) {
    ssize_t N = write(Fd, Data + Done, Len - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      int Saved = N < 0 ? errno : EIO;
      close(Fd);
      unlink(Tmp);
      errno = Saved;
      return false;
    }
    Done += static_cast<unsigned long>(N);
  }
  if (write(Fd, "\n", 1) != 1 || close(Fd) != 0) {
    int Saved = errno;
    unlink(Tmp);
    errno = Saved;
    return false;
  }
  if (rename(Tmp, Path) != 0) {
    int Saved = errno;
    unlink(Tmp);
    errno = Saved;
    return false;
  }
  return true;
}

} // namespace __phaseprobe
