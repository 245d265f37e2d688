//===- runtime.cpp - Probes, registry and per-thread state ----------------===//
//
// The entry points of interface.h. Hot-path rules: no locks, no exceptions,
// no allocation except the first time a thread or a phase is seen. Each probe
// pushes or pops a frame on the calling thread's construct stack and adds the
// elapsed time and the innermost-loop iterations (read from the TLS counter
// the instrumented code maintains) to the thread's slot for that phase. How
// the per-thread slots become one phase time is decided when the file is
// written (phase_writer.cpp).
//
//===----------------------------------------------------------------------===//
#include "runtime.h"
#include "guards.h"
#include "page_touches.h"
#include "phase_writer.h"
#include "rt_memory.h"
#include "thread_state.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <new>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

// OpenMP queries, weak so that the runtime itself does not pull in libomp;
// every instrumented program links it anyway.
extern "C" int omp_get_num_threads(void) __attribute__((weak));

extern "C" {
__thread uint64_t __phaseprobe_iterations __attribute__((tls_model("initial-exec"))) = 0;
__thread uint64_t __phaseprobe_barriers __attribute__((tls_model("initial-exec"))) = 0;
__thread uint64_t __phaseprobe_spin_waits __attribute__((tls_model("initial-exec"))) = 0;
__thread uint64_t __phaseprobe_spin_entries __attribute__((tls_model("initial-exec"))) = 0;
__thread uint64_t __phaseprobe_in_copy __attribute__((tls_model("initial-exec"))) = 0;
}

namespace __phaseprobe {
namespace {

__thread ThreadState *TlsState __attribute__((tls_model("initial-exec"))) = nullptr;

std::atomic<ThreadState *> ThreadListHead{nullptr};
std::atomic<uint32_t> ThreadCount{0};

// The registry of constructs. It only grows; Table is replaced (the old one
// leaked on purpose, a racing reader may still use it) when it is full.
pthread_mutex_t RegistryLock = PTHREAD_MUTEX_INITIALIZER;
struct PhaseInfo {
  __phaseprobe_construct *Construct;
  std::atomic<uint32_t> Parent;
  std::atomic<uint32_t> Team;
};
std::atomic<PhaseInfo *> Table{nullptr};
std::atomic<uint32_t> NumPhases{0};
uint32_t TableCap = 0;

std::atomic<uint32_t> MaxTeam{0};
std::atomic<uint32_t> Objects{0};

// Sites whose code branches on the thread count, over all objects, without
// duplicates (an inline function's branch is in every object that uses it).
// A fixed table of copies: it is filled by module constructors, and a program
// with more such sites than this gets the first ones and the count of the rest.
constexpr uint32_t MaxThreadBranches = 64;
const char *ThreadBranchSites[MaxThreadBranches];
uint32_t NumThreadBranches = 0;
uint32_t MoreThreadBranches = 0;

// Regions that run only where tests of the thread count hold: (phase, test)
// pairs, a fixed table like the sites'. A region past its end is written
// without its tests, so the estimate charges it at every count, as before.
constexpr uint32_t MaxRegionGuards = 256;
struct RegionGuard {
  uint32_t Phase;
  const char *Test;
};
RegionGuard RegionGuardTable[MaxRegionGuards];
uint32_t NumRegionGuards = 0;

// Per phase, the arithmetic of its code by kind: a fixed table like the
// guards'. A phase past its end is written without its ops, and the
// estimator prices its padding as before.
constexpr uint32_t MaxOpMixes = 1024;
struct PhaseOpMix {
  uint32_t Phase;
  uint32_t Counts[PHASEPROBE_OP_KINDS];
};
PhaseOpMix OpMixTable[MaxOpMixes];
uint32_t NumOpMixes = 0;

pthread_once_t StartOnce = PTHREAD_ONCE_INIT;
ProcessInfo Process;

void atomicMax(std::atomic<uint32_t> &A, uint32_t V) {
  uint32_t Cur = A.load(std::memory_order_relaxed);
  while (Cur < V && !A.compare_exchange_weak(Cur, V, std::memory_order_relaxed))
    ;
}

void readCmdline() {
  int Fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return;
  size_t Cap = 4096, Len = 0;
  char *Buf = static_cast<char *>(rtCalloc(1, Cap));
  while (Buf) {
    ssize_t N = read(Fd, Buf + Len, Cap - Len);
    if (N <= 0)
      break;
    Len += static_cast<size_t>(N);
    if (Len == Cap) {
      char *Bigger = static_cast<char *>(rtRealloc(Buf, Cap * 2));
      if (!Bigger)
        break;
      Buf = Bigger;
      Cap *= 2;
    }
  }
  close(Fd);
  Process.Argv = Buf;
  Process.ArgvLen = static_cast<uint32_t>(Len);
}

void startOnce() {
  startClock(getenv("PHASEPROBE_CLOCK"));
  Process.StartNs = nowNs();
  Process.StartFaults = minorFaults();
  Process.Pid = getpid();
  Process.Starter = pthread_self();
  const char *V = getenv("PHASEPROBE_VERBOSE");
  Process.Verbose = V && *V && strcmp(V, "0") != 0;
  time_t Now = time(nullptr);
  struct tm Tm;
  gmtime_r(&Now, &Tm);
  strftime(Process.Started, sizeof Process.Started, "%Y-%m-%dT%H:%M:%SZ", &Tm);
  readCmdline();
  // Other runtime units (stream sampling) start here.
  installExitHook();
  verbose("runtime started (ABI %u, pid %d, clock %s)", PHASEPROBE_ABI_VERSION, Process.Pid,
          clockName());
}

// Start as early as possible so the program's total time includes the
// constructors of other objects; registration starts us even earlier.
__attribute__((constructor(101))) void startAtLoad() { ensureStarted(); }

PhaseSlot *slot(ThreadState *T, uint32_t Phase) {
  if (Phase >= T->NumSlots) {
    uint32_t N = NumPhases.load(std::memory_order_acquire);
    if (Phase >= N)
      return nullptr;
    uint32_t NewN = N < 16 ? 16 : N;
    auto *S = static_cast<PhaseSlot *>(rtCalloc(NewN, sizeof(PhaseSlot)));
    if (!S)
      return nullptr;
    if (T->Slots)
      memcpy(S, T->Slots, T->NumSlots * sizeof(PhaseSlot));
    // The old array is leaked: the exit hook of another thread may be
    // reading it right now.
    T->Slots = S;
    T->NumSlots = NewN;
  }
  return &T->Slots[Phase];
}

void recordParent(uint32_t Phase, uint32_t Parent) {
  PhaseInfo *Tab = Table.load(std::memory_order_acquire);
  uint32_t Unset = NoPhase - 1;
  // Read first: after the first execution this is a load of a line every
  // thread only reads, not a compare-and-swap they all fight over.
  if (Tab[Phase].Parent.load(std::memory_order_relaxed) != Unset)
    return;
  Tab[Phase].Parent.compare_exchange_strong(Unset, Parent, std::memory_order_relaxed);
}

/// Whether this fork of a region counts its page faults. Reading them costs
/// two system calls (0.65-0.75 us each on this project's VM,
/// bench/overhead/fault_count.py): after its first 8 forks a region keeps
/// counting only while its forks last 100 us or more on average, so the
/// reads stay within about 1.5% of its time; the faults of the rest are
/// extrapolated (phase_writer.cpp). A short fork cannot hide many faults
/// anyway (one costs 1-3 us).
bool countFaults(const PhaseSlot *S) {
  constexpr uint64_t FirstForks = 8, MinMeanNs = 100000;
  return S && (S->ForkCount < FirstForks || S->ForkNs >= MinMeanNs * S->ForkCount);
}

bool push(ThreadState *T, uint32_t Phase, FrameKind K, uint32_t Team) {
  if (T->Depth == MaxDepth) {
    ++T->Overflow;
    return false;
  }
  Frame &F = T->Stack[T->Depth++];
  F.Phase = Phase;
  F.Kind = K;
  F.PrevRegion = T->CurrentRegion;
  F.TeamSize = Team;
  F.StartIters = __phaseprobe_iterations;
  F.StartBarriers = __phaseprobe_barriers;
  F.StartSpinWaits = __phaseprobe_spin_waits;
  F.StartSpinEntries = __phaseprobe_spin_entries;
  F.StartSpinRounds = T->SpinRounds;
  F.StartFaults = NoFaults;
  // The order phases run in, for the hand-over of what one writes and
  // another reads (page_touches.h): every invocation, sampled or not, in
  // runs that sample (a timing-only run has no streams to give a share).
  if (K != FrameKind::RegionFork && samplingEnabled())
    if (const PhaseSlot *S = slot(T, Phase))
      streams::PhaseOrder::process().begin(Phase, S->ShareCount + 1);
  F.StartNs = nowNs();
  return true;
}

bool isRegionKind(uint32_t K) { return K >= 1 && K <= 4; }

// A registered construct with the same source location and the same role
// (region or not) as \p C, or NoPhase. Registration only: linear is fine.
uint32_t findSame(const PhaseInfo *Tab, uint32_t N, const __phaseprobe_construct &C) {
  for (uint32_t I = 0; I < N; ++I) {
    const __phaseprobe_construct *O = Tab[I].Construct;
    if (O->line == C.line && O->column == C.column &&
        isRegionKind(O->kind) == isRegionKind(C.kind) && O->file && C.file &&
        strcmp(O->file, C.file) == 0)
      return I;
  }
  return NoPhase;
}

// Index of \p C when it is tracked, else NoPhase.
inline uint32_t indexOf(const __phaseprobe_construct *C) {
  uint32_t I = C->index;
  return I < NumPhases.load(std::memory_order_relaxed) ? I : NoPhase;
}

// Closes the share in the top frame into its slot.
void closeShare(ThreadState *T, const Frame &F) {
  uint64_t End = nowNs();
  PhaseSlot *S = slot(T, F.Phase);
  if (!S)
    return;
  uint64_t Iters = __phaseprobe_iterations - F.StartIters;
  S->ShareNs += End - F.StartNs;
  // A share with no loop in it counts one execution of its body.
  S->ShareIters += Iters ? Iters : 1;
  if (__phaseprobe_in_copy)
    S->ShareItersInCopy += Iters;
  S->ShareCount += 1;
  // Spin-wait rounds (runtime/README.md): a worksharing share that entered
  // a spin loop is one round of a pipeline whether or not its thread had to
  // wait this time (on idle cores that depends on timing; on a shared core
  // it waits every round); a region member's are its shares' rounds, or its
  // waits where it waited more often (a pipeline without worksharing).
  uint64_t Rounds = T->SpinRounds - F.StartSpinRounds;
  if (F.Kind == FrameKind::Worksharing && __phaseprobe_spin_entries != F.StartSpinEntries) {
    Rounds = 1;
    ++T->SpinRounds;
  }
  S->ShareSpinRounds += std::max<uint64_t>(Rounds, __phaseprobe_spin_waits - F.StartSpinWaits);
}

} // namespace

ThreadState *threadStateIfAny() { return TlsState; }

ThreadState *threadState() {
  ThreadState *T = TlsState;
  if (__builtin_expect(T != nullptr, 1))
    return T;
  void *Mem = rtCalloc(1, sizeof(ThreadState));
  if (!Mem)
    abort(); // out of memory before the program's first region: nothing sane
  T = new (Mem) ThreadState();
  T->Ordinal = ThreadCount.fetch_add(1, std::memory_order_relaxed);
  T->Starter = pthread_equal(pthread_self(), Process.Starter) != 0;
  ThreadState *Head = ThreadListHead.load(std::memory_order_relaxed);
  do
    T->Next = Head;
  while (!ThreadListHead.compare_exchange_weak(Head, T, std::memory_order_release,
                                               std::memory_order_relaxed));
  TlsState = T;
  return T;
}

ThreadState *threadList() { return ThreadListHead.load(std::memory_order_acquire); }

uint32_t currentPhase() {
  ThreadState *T = TlsState;
  if (!T || T->Depth == 0)
    return NoPhase;
  return T->Stack[T->Depth - 1].Phase;
}

uint32_t phaseCount() { return NumPhases.load(std::memory_order_acquire); }

const __phaseprobe_construct *construct(uint32_t Index) {
  return Table.load(std::memory_order_acquire)[Index].Construct;
}

uint32_t phaseParent(uint32_t Index) {
  uint32_t P = Table.load(std::memory_order_acquire)[Index].Parent.load(std::memory_order_relaxed);
  return P == NoPhase - 1 ? NoPhase : P;
}

uint32_t phaseTeamSize(uint32_t Index) {
  return Table.load(std::memory_order_acquire)[Index].Team.load(std::memory_order_relaxed);
}

uint32_t objectsRegistered() { return Objects.load(std::memory_order_relaxed); }

uint32_t maxTeamSize() { return MaxTeam.load(std::memory_order_relaxed); }

const char *copyString(const char *S) {
  size_t Len = strlen(S);
  char *Copy = static_cast<char *>(rtCalloc(Len + 1, 1));
  if (Copy)
    memcpy(Copy, S, Len);
  return Copy;
}

void ensureStarted() { pthread_once(&StartOnce, startOnce); }

const ProcessInfo &processInfo() { return Process; }

uint32_t threadBranches(const char *const **Sites, uint32_t *More) {
  pthread_mutex_lock(&RegistryLock);
  uint32_t N = NumThreadBranches;
  *Sites = ThreadBranchSites;
  *More = MoreThreadBranches;
  pthread_mutex_unlock(&RegistryLock);
  return N;
}

uint32_t regionGuards(uint32_t Index, const char **Tests, uint32_t Cap) {
  pthread_mutex_lock(&RegistryLock);
  uint32_t N = 0;
  for (uint32_t I = 0; I < NumRegionGuards && N < Cap; ++I)
    if (RegionGuardTable[I].Phase == Index)
      Tests[N++] = RegionGuardTable[I].Test;
  pthread_mutex_unlock(&RegistryLock);
  return N;
}

bool opMix(uint32_t Index, uint32_t *Counts) {
  pthread_mutex_lock(&RegistryLock);
  bool Found = false;
  for (uint32_t I = 0; I < NumOpMixes && !Found; ++I)
    if (OpMixTable[I].Phase == Index) {
      memcpy(Counts, OpMixTable[I].Counts, sizeof OpMixTable[I].Counts);
      Found = true;
    }
  pthread_mutex_unlock(&RegistryLock);
  return Found;
}

void verbose(const char *Fmt, ...) {
  if (!Process.Verbose)
    return;
  char Line[512];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Line, sizeof Line, Fmt, Ap);
  va_end(Ap);
  fprintf(stderr, "phaseprobe: %s\n", Line);
}

void warning(const char *Fmt, ...) {
  char Line[1024];
  va_list Ap;
  va_start(Ap, Fmt);
  vsnprintf(Line, sizeof Line, Fmt, Ap);
  va_end(Ap);
  fprintf(stderr, "phaseprobe: warning: %s\n", Line);
}

// A fork's faults are its team's: every member faults into the process's
// count, which the forking thread reads at fork and join.
uint64_t minorFaults() {
  struct rusage U;
  return getrusage(RUSAGE_SELF, &U) == 0 ? uint64_t(U.ru_minflt) : 0;
}

} // namespace __phaseprobe

using namespace __phaseprobe;

extern "C" {

void __phaseprobe_register(uint32_t AbiVersion, const char *Module,
                           __phaseprobe_construct *Constructs, uint32_t Count,
                           uint32_t ConstructSize) {
  ensureStarted();
  Objects.fetch_add(1, std::memory_order_relaxed);
  if (AbiVersion != PHASEPROBE_ABI_VERSION) {
    warning("%s was instrumented for phaseprobe ABI %u but this runtime "
            "implements ABI %u; its %u constructs are not measured "
            "(rebuild it with the matching plugin)",
            Module ? Module : "an object", AbiVersion, PHASEPROBE_ABI_VERSION, Count);
    // Only the first field and the element size are assumed: they are the
    // same in every version.
    for (uint32_t I = 0; I < Count; ++I)
      *reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(Constructs) +
                                    static_cast<size_t>(I) * ConstructSize) = PHASEPROBE_DISABLED;
    return;
  }
  pthread_mutex_lock(&RegistryLock);
  uint32_t N = NumPhases.load(std::memory_order_relaxed);
  if (N + Count > TableCap) {
    uint32_t NewCap = TableCap ? TableCap : 64;
    while (NewCap < N + Count)
      NewCap *= 2;
    auto *NewTab = static_cast<PhaseInfo *>(rtCalloc(NewCap, sizeof(PhaseInfo)));
    if (!NewTab) {
      pthread_mutex_unlock(&RegistryLock);
      warning("out of memory registering %s; it is not measured", Module);
      for (uint32_t I = 0; I < Count; ++I)
        Constructs[I].index = PHASEPROBE_DISABLED;
      return;
    }
    PhaseInfo *Old = Table.load(std::memory_order_relaxed);
    for (uint32_t I = 0; I < N; ++I) {
      NewTab[I].Construct = Old[I].Construct;
      NewTab[I].Parent.store(Old[I].Parent.load());
      NewTab[I].Team.store(Old[I].Team.load());
    }
    Table.store(NewTab, std::memory_order_release); // Old leaked on purpose
    TableCap = NewCap;
  }
  PhaseInfo *Tab = Table.load(std::memory_order_relaxed);
  uint32_t Added = 0;
  for (uint32_t I = 0; I < Count; ++I) {
    // The same source construct compiled into several objects (an inline
    // function or a template in a header) is one phase.
    uint32_t Same = findSame(Tab, N + Added, Constructs[I]);
    if (Same != NoPhase) {
      Constructs[I].index = Same;
      continue;
    }
    uint32_t P = N + Added++;
    Tab[P].Construct = &Constructs[I];
    Tab[P].Parent.store(NoPhase - 1, std::memory_order_relaxed);
    Tab[P].Team.store(0, std::memory_order_relaxed);
    Constructs[I].index = P;
  }
  NumPhases.store(N + Added, std::memory_order_release);
  pthread_mutex_unlock(&RegistryLock);
  verbose("registered %u constructs of %s", Count, Module);
}

void __phaseprobe_thread_branches(const char *Module, const char *const *Sites,
                                  uint32_t Count) {
  ensureStarted();
  pthread_mutex_lock(&RegistryLock);
  for (uint32_t I = 0; I < Count; ++I) {
    if (!Sites || !Sites[I])
      continue;
    bool Known = false;
    for (uint32_t J = 0; J < NumThreadBranches && !Known; ++J)
      Known = strcmp(ThreadBranchSites[J], Sites[I]) == 0;
    if (Known)
      continue;
    const char *Copy = NumThreadBranches < MaxThreadBranches ? copyString(Sites[I]) : nullptr;
    if (Copy)
      ThreadBranchSites[NumThreadBranches++] = Copy;
    else
      ++MoreThreadBranches;
  }
  pthread_mutex_unlock(&RegistryLock);
  verbose("%s branches on the thread count at %u sites", Module ? Module : "an object", Count);
}

void __phaseprobe_op_mix(const char *Module, __phaseprobe_construct *const *Constructs,
                         const uint32_t *Counts, uint32_t Count) {
  ensureStarted();
  pthread_mutex_lock(&RegistryLock);
  uint32_t Stored = 0;
  for (uint32_t I = 0; I < Count && Constructs && Counts && NumOpMixes < MaxOpMixes; ++I) {
    if (!Constructs[I] || Constructs[I]->index == PHASEPROBE_DISABLED)
      continue; // an object of another ABI: its constructs are not measured
    uint32_t P = Constructs[I]->index;
    // A header's construct used by two objects is one phase: the first
    // object's counts stand (the same code).
    bool Known = false;
    for (uint32_t J = 0; J < NumOpMixes && !Known; ++J)
      Known = OpMixTable[J].Phase == P;
    if (Known)
      continue;
    PhaseOpMix &M = OpMixTable[NumOpMixes++];
    M.Phase = P;
    memcpy(M.Counts, Counts + size_t(I) * PHASEPROBE_OP_KINDS, sizeof M.Counts);
    ++Stored;
  }
  pthread_mutex_unlock(&RegistryLock);
  verbose("%s: the op mix of %u constructs", Module ? Module : "an object", Stored);
}

void __phaseprobe_region_guards(const char *Module, __phaseprobe_construct *const *Regions,
                                const char *const *Tests, uint32_t Count) {
  ensureStarted();
  pthread_mutex_lock(&RegistryLock);
  uint32_t Stored = 0;
  for (uint32_t I = 0; I < Count && Regions && Tests; ++I) {
    if (!Regions[I] || !Tests[I] || Regions[I]->index == PHASEPROBE_DISABLED)
      continue; // an object of another ABI: its regions are not measured
    uint32_t P = Regions[I]->index;
    bool Known = false;
    for (uint32_t J = 0; J < NumRegionGuards && !Known; ++J)
      Known = RegionGuardTable[J].Phase == P && strcmp(RegionGuardTable[J].Test, Tests[I]) == 0;
    if (Known)
      continue;
    const char *Copy = NumRegionGuards < MaxRegionGuards ? copyString(Tests[I]) : nullptr;
    if (!Copy)
      break;
    RegionGuardTable[NumRegionGuards++] = {P, Copy};
    ++Stored;
  }
  pthread_mutex_unlock(&RegistryLock);
  verbose("%s: %u tests of the thread count its regions run under", Module ? Module : "an object",
          Stored);
}

void __phaseprobe_region_begin(__phaseprobe_construct *C) {
  uint32_t P = indexOf(C);
  if (P == NoPhase)
    return;
  ThreadState *T = threadState();
  recordParent(P, T->CurrentRegion);
  // Read before the frame's clock starts (and at the end after it stops).
  bool Count = countFaults(slot(T, P));
  if (Count && T->CurrentRegion == NoPhase)
    guardedForkBegin();
  uint64_t Faults = Count ? minorFaults() : NoFaults;
  if (push(T, P, FrameKind::RegionFork, 0))
    T->Stack[T->Depth - 1].StartFaults = Faults;
}

void __phaseprobe_region_end(__phaseprobe_construct *C) {
  uint32_t P = indexOf(C);
  if (P == NoPhase)
    return;
  ThreadState *T = threadState();
  if (T->Overflow) {
    --T->Overflow;
    return;
  }
  if (T->Depth == 0 || T->Stack[T->Depth - 1].Kind != FrameKind::RegionFork)
    return; // unbalanced (a longjmp out of a region): drop it
  const Frame &F = T->Stack[--T->Depth];
  if (PhaseSlot *S = slot(T, F.Phase)) {
    // A top-level fork: what guarded memory and serial code are measured
    // around (guards.h).
    bool TopLevel = T->CurrentRegion == NoPhase;
    uint64_t Ns = nowNs() - F.StartNs;
    S->ForkNs += Ns;
    if (TopLevel)
      guardedForkTime(Ns);
    S->ForkCount += 1;
    // The forking thread is thread 0 of the team and crosses every barrier
    // of the region; the join is one more.
    S->ForkBarriers += __phaseprobe_barriers - F.StartBarriers + 1;
    if (F.StartFaults != NoFaults) {
      uint64_t Faults = minorFaults() - F.StartFaults;
      S->ForkFaults += Faults;
      S->FaultForks += 1;
      if (TopLevel)
        guardedForkEnd(F.Phase, Faults);
    }
  }
}

void __phaseprobe_thread_begin(__phaseprobe_construct *C) {
  uint32_t P = indexOf(C);
  if (P == NoPhase)
    return;
  ThreadState *T = threadState();
  uint32_t Team = omp_get_num_threads ? omp_get_num_threads() : 1;
  atomicMax(Table.load(std::memory_order_acquire)[P].Team, Team);
  atomicMax(MaxTeam, Team);
  // After the fork bound it, before its body's clock starts: whether the
  // team shares CPUs decides how the estimator reads a region's time beyond
  // its slowest thread's.
  if (Team > T->CpusTeam)
    T->CpusTeam = sched_getaffinity(0, sizeof(T->Cpus), &T->Cpus) == 0 ? Team : ~0u;
  if (push(T, P, FrameKind::RegionThread, Team)) {
    T->CurrentRegion = P;
    T->CurrentTeam = Team;
  }
}

void __phaseprobe_thread_end(__phaseprobe_construct *C) {
  uint32_t P = indexOf(C);
  if (P == NoPhase)
    return;
  ThreadState *T = threadState();
  if (T->Overflow) {
    --T->Overflow;
    return;
  }
  // Worksharing frames left open (cannot happen in well-formed OpenMP) are
  // dropped so the stack stays consistent.
  while (T->Depth && T->Stack[T->Depth - 1].Kind == FrameKind::Worksharing)
    --T->Depth;
  if (T->Depth == 0 || T->Stack[T->Depth - 1].Kind != FrameKind::RegionThread)
    return;
  const Frame &F = T->Stack[--T->Depth];
  closeShare(T, F);
  T->CurrentRegion = F.PrevRegion;
  // The enclosing region frame (if any) tells the team size we return to.
  T->CurrentTeam = 1;
  for (uint32_t I = T->Depth; I-- > 0;)
    if (T->Stack[I].Kind == FrameKind::RegionThread) {
      T->CurrentTeam = T->Stack[I].TeamSize;
      break;
    }
}

void __phaseprobe_ws_begin(__phaseprobe_construct *C) {
  uint32_t P = indexOf(C);
  if (P == NoPhase)
    return;
  ThreadState *T = threadState();
  recordParent(P, T->CurrentRegion);
  PhaseInfo *Tab = Table.load(std::memory_order_acquire);
  if (Tab[P].Team.load(std::memory_order_relaxed) < T->CurrentTeam)
    atomicMax(Tab[P].Team, T->CurrentTeam);
  push(T, P, FrameKind::Worksharing, T->CurrentTeam);
}

void __phaseprobe_ws_entered(int32_t Executes) {
  if (Executes)
    return;
  ThreadState *T = threadStateIfAny();
  if (!T)
    return;
  if (T->Overflow) {
    --T->Overflow;
    return;
  }
  if (T->Depth && T->Stack[T->Depth - 1].Kind == FrameKind::Worksharing)
    --T->Depth; // not this thread's block: no share
}

void __phaseprobe_ws_end(void) {
  ThreadState *T = threadStateIfAny();
  if (!T)
    return;
  if (T->Overflow) {
    --T->Overflow;
    return;
  }
  if (T->Depth == 0 || T->Stack[T->Depth - 1].Kind != FrameKind::Worksharing)
    return;
  closeShare(T, T->Stack[--T->Depth]);
}

void __phaseprobe_ws_next(int32_t More) {
  if (!More)
    __phaseprobe_ws_end();
}

} // extern "C"
