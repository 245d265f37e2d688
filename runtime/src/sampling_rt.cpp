//===- sampling_rt.cpp - Stream sampling entry points and phase output ----===//
//
// Glue between the instrumented code, the phase runtime and the stream
// analysis of streams.h: the __phaseprobe_burst_* / __phaseprobe_sample entry
// points of interface.h, the per-thread samplers (initial-exec TLS plus a
// lock-free global list, since OpenMP workers never run TLS destructors), the
// timing correction, and the writer of each phase's "streams" array, which
// installs itself in the phase writer when the runtime is loaded.
//
// Timing honesty: every sampled loop execution reports the overhead of its
// burst (burst time minus the clean time of as many plain iterations, see
// ThreadSampler::endExecution) and the open phase frames of the thread are
// shifted by it, so shares, region bodies and hence phase time and tpi leave
// the sampling cost out. Iteration counts are untouched: the instrumented
// clone counts its iterations exactly like the original loop.
//
//===----------------------------------------------------------------------===//
#include "node_info.h"
#include "phase_writer.h"
#include "rt_memory.h"
#include "runtime.h"
#include "streams.h"
#include "thread_state.h"

#include "phaseprobe/interface.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>
#include <sys/mman.h>

using namespace __phaseprobe;
using namespace __phaseprobe::streams;

static_assert(sizeof(SiteDesc) == sizeof(__phaseprobe_site),
              "SiteDesc must mirror __phaseprobe_site");

namespace {

Config Cfg;
pthread_once_t CfgOnce = PTHREAD_ONCE_INIT;
std::atomic<ThreadSampler *> Samplers{nullptr};
thread_local ThreadSampler *TlsSampler
    __attribute__((tls_model("initial-exec"))) = nullptr;

/// Whether \p Addr lies in a mapping: mincore fails with ENOMEM on
/// unmapped memory and touches nothing.
bool isMapped(uintptr_t Addr) {
  unsigned char Vec;
  void *Page = reinterpret_cast<void *>(Addr & ~uintptr_t(4095));
  return mincore(Page, 1, &Vec) == 0 || errno != ENOMEM;
}

void readConfig() {
  char Warning[256];
  Cfg = Config::fromEnvironment(Warning, sizeof Warning);
  Cfg.IsMapped = isMapped;
  if (Warning[0])
    warning("%s", Warning);
  verbose("stream sampling %s (period %llu, burst %u, one invocation in %llu)",
          Cfg.Enabled ? "on" : "off",
          static_cast<unsigned long long>(Cfg.Period), Cfg.Burst,
          static_cast<unsigned long long>(Cfg.Invocations));
}

ThreadSampler *samplerSlow() {
  pthread_once(&CfgOnce, readConfig);
  void *Mem = rtCalloc(1, sizeof(ThreadSampler));
  if (!Mem)
    return nullptr;
  ThreadSampler *S = new (Mem) ThreadSampler(Cfg);
  ThreadSampler *Head = Samplers.load(std::memory_order_relaxed);
  do
    S->Next = Head;
  while (!Samplers.compare_exchange_weak(Head, S, std::memory_order_release,
                                         std::memory_order_relaxed));
  TlsSampler = S;
  return S;
}

inline ThreadSampler *sampler() {
  ThreadSampler *S = TlsSampler;
  return __builtin_expect(S != nullptr, 1) ? S : samplerSlow();
}

PhaseContext currentContext() {
  PhaseContext C;
  ThreadState *T = threadStateIfAny();
  if (!T || T->Depth == 0)
    return C;
  C.Phase = T->Stack[T->Depth - 1].Phase;
  // The thread's finished shares of the phase number its invocations, the
  // same way in every thread of the team.
  C.Invocation = C.Phase < T->NumSlots ? T->Slots[C.Phase].ShareCount : 0;
  return C;
}

double l1dKiB() {
  // The node description already loaded hwloc once; a second topology load
  // at exit cost as much again.
  const NodeFacts &F = nodeFacts();
  return F.Known && F.L1dKiB ? double(F.L1dKiB) : 32.0; // the common size
}

/// The phase writer's hook: phase \p Phase's "streams" array.
void writeStreams(JsonWriter &W, uint32_t Phase, bool SplitsIterations) {
  Vec<const ThreadSampler *> All;
  for (ThreadSampler *S = Samplers.load(std::memory_order_acquire); S;
       S = S->Next)
    All.push(S);
  // The phase's iterations in sampling copies, every thread's: what the
  // samples of its loops stand among (accesses per iteration).
  double InCopies = 0;
  for (ThreadState *T = threadList(); T; T = T->Next)
    if (Phase < T->NumSlots)
      InCopies += double(T->Slots[Phase].ShareItersInCopy);
  // Every phase's hand-over at once, at the first phase written (the
  // threads are done by then).
  // (Storage never destroyed: the writers run at exit, in no set order with
  // static destructors.)
  alignas(Vec<SiteHandover>) static unsigned char Storage[sizeof(Vec<SiteHandover>)];
  static Vec<SiteHandover> *Handovers = nullptr;
  if (!Handovers) {
    Handovers = new (Storage) Vec<SiteHandover>();
    Vec<PageRead> Reads;
    const Vec<SiteKey> Interleaved = interleavedSites(All.Data, All.Size);
    for (const ThreadSampler *S : All) {
      S->markWrittenRanges(PageTouches::process(), Interleaved);
      S->pageReads(Reads);
    }
    PageTouches::process().summarize(PhaseOrder::process(), Reads, *Handovers);
  }
  Vec<StreamResult> Streams =
      analyzePhase(Phase, All.Data, All.Size, l1dKiB(), Cfg.FarGapBytes, InCopies,
                   SplitsIterations, Handovers);
  W.beginArray();
  unsigned Id = 0;
  for (const StreamResult &R : Streams) {
    char Name[24];
    std::snprintf(Name, sizeof Name, "v%u", ++Id);
    W.beginObject();
    W.key("id");
    W.string(Name);
    W.key("footprint_kib");
    W.number(R.FootprintKiB);
    W.key("stride_bytes");
    W.unsignedInteger(R.StrideBytes);
    W.key("elem_bytes");
    W.unsignedInteger(R.ElemBytes);
    W.key("access");
    W.string(R.Shared ? "shared" : "private");
    W.key("op");
    W.string(R.op());
    W.key("significant");
    W.boolean(R.Significant);
    W.key("pattern");
    W.string(R.Random ? "random" : "strided");
    W.key("stride_share");
    W.number(R.DominantShare);
    if (R.SecondStrideBytes) {
      W.key("second_stride_bytes");
      W.unsignedInteger(R.SecondStrideBytes);
    }
    if (R.NumSites == 1 && !R.MoreSites) {
      W.key("site");
      W.string(R.Sites[0]);
    } else {
      W.key("sites");
      W.beginArray();
      for (int I = 0; I < R.NumSites; ++I)
        W.string(R.Sites[I]);
      W.endArray();
    }
    W.key("samples");
    W.unsignedInteger(R.Samples);
    if (R.AccessesPerIter >= 0) {
      W.key("accesses_per_iteration");
      W.number(R.AccessesPerIter);
    }
    if (R.HandoverShare >= 0) {
      W.key("handover_share");
      W.number(R.HandoverShare);
      W.key("handover_rounds");
      W.number(R.HandoverRounds);
    }
    if (R.WindowAccesses > 0) {
      // How long a loop execution of the stream's sites is: with the
      // stride, the span one execution walks (a plane of a 3-D sweep),
      // to which phase clones confine their columns (+c<N>).
      W.key("accesses_per_execution");
      W.number(R.WindowAccesses);
    }
    if (R.JumpShare >= 0 && R.WindowAccesses > 0) {
      // Whether those executions start at random places (a lookup's window
      // of a table) or walk on (rows, planes): phase clones jump too.
      W.key("jump_share");
      W.number(R.JumpShare);
    }
    if (R.WindowRepeats > 0 && R.WindowAccesses > 0) {
      W.key("window_accesses");
      W.number(R.WindowAccesses);
      W.key("window_repeats");
      W.number(R.WindowRepeats);
    }
    W.endObject();
  }
  W.endArray();
  BurstCost C = totalCost(Phase, All.Data, All.Size);
  if (C.Bursts)
    verbose("phase %u: %llu bursts, %llu samples, %.6f s in bursts, %.6f s "
            "overhead removed",
            Phase, static_cast<unsigned long long>(C.Bursts),
            static_cast<unsigned long long>(C.Samples), C.Seconds,
            C.OverheadSeconds);
}

// Installs the writer as soon as the runtime is loaded; the phase writer
// only calls it at exit.
__attribute__((constructor(102))) void installStreamsWriter() {
  setStreamsWriter(writeStreams);
  setSamplingQuery([] {
    pthread_once(&CfgOnce, readConfig);
    return Cfg.Enabled;
  });
}

} // namespace

extern "C" {

PHASEPROBE_API uint32_t __phaseprobe_invocation_begin2(const int64_t *root, int64_t *next) {
  pthread_once(&CfgOnce, readConfig);
  ThreadSampler *S = Cfg.Enabled ? sampler() : nullptr;
  if (!S) {
    *next = INT64_MAX; // this function never asks again in this thread
    return 0;
  }
  return S->beginInvocation(root, next) ? 1 : 0;
}

PHASEPROBE_API uint32_t __phaseprobe_burst_begin2(const int64_t *loop, int64_t *next) {
  pthread_once(&CfgOnce, readConfig);
  if (!Cfg.Enabled) {
    *next = INT64_MAX; // this loop never asks again in this thread
    return 0;
  }
  ThreadSampler *S = sampler();
  if (!S) {
    *next = INT64_MAX;
    return 0;
  }
  return S->beginBurst(currentContext(), loop, next, nowNs());
}

// The entry points of objects built before the *2 ones: the countdown is
// both the identity and where the answer goes.
PHASEPROBE_API uint32_t __phaseprobe_invocation_begin(int64_t *countdown) {
  return __phaseprobe_invocation_begin2(countdown, countdown);
}

PHASEPROBE_API uint32_t __phaseprobe_burst_begin(int64_t *countdown) {
  return __phaseprobe_burst_begin2(countdown, countdown);
}

PHASEPROBE_API void __phaseprobe_sample(const __phaseprobe_site *site,
                                        const void *addr) {
  if (ThreadSampler *S = TlsSampler)
    S->sample(reinterpret_cast<const SiteDesc *>(site),
              reinterpret_cast<uintptr_t>(addr));
}

PHASEPROBE_API void __phaseprobe_burst_stop(void) {
  if (ThreadSampler *S = TlsSampler)
    S->stopBurst(nowNs());
}

PHASEPROBE_API void __phaseprobe_burst_end(int64_t *countdown,
                                           uint64_t backedges) {
  __phaseprobe_burst_end2(countdown, backedges);
}

PHASEPROBE_API void __phaseprobe_burst_end2(int64_t *next, uint64_t backedges) {
  ThreadSampler *S = TlsSampler;
  if (!S)
    return;
  uint64_t Now = nowNs();
  uint64_t Over = S->endExecution(backedges, next, Now);
  if (!Over)
    return;
  // The bookkeeping here (folding the burst's records) is sampling cost too.
  Over += nowNs() - Now;
  // Take the sampling cost out of every phase the thread is inside, and (on
  // the main thread) out of the program's total time.
  if (ThreadState *T = threadStateIfAny()) {
    for (uint32_t I = 0; I < T->Depth; ++I)
      T->Stack[I].StartNs += Over;
    T->RemovedNs += Over;
  }
}

} // extern "C"
