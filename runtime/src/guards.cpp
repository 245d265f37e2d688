//===- guards.cpp - Memory and serial code only under a test of the count -===//
//
// Off the hot path: nothing happens at a fork while no guarded memory is
// tracked (one relaxed load). A block is tracked from its allocation until
// it is fully resident, unmapped, replaced by a later guarded block at the
// same addresses, or 8 counted forks later: the memory of a block freed
// and reused by other code must not be charged to the test for long. Pages
// that become resident in serial code between forks are not charged (the
// estimate prices faults of regions only). A fault that maps a huge page
// makes 512 pages resident: the charge of a fork is capped at its faults.
//
//===----------------------------------------------------------------------===//
#include "guards.h"
#include "runtime.h"
#include "thread_state.h"

#include "phaseprobe/interface.h"

#include <atomic>
#include <cstring>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace __phaseprobe {
namespace {

// The calling thread's last allocation a guarded call may return.
__thread void *NoteP = nullptr;
__thread uint64_t NoteBytes = 0;

constexpr uint32_t MaxTests = 4, MaxSets = 16, MaxBlocks = 64, MaxCharges = 256;
constexpr uint32_t ForksTracked = 8;

struct TestSet {
  const char *Tests[MaxTests];
  uint32_t N;
};
struct Block {
  uintptr_t Start; ///< page-aligned: the pages entirely inside the block
  uint64_t Pages, Resident;
  uint32_t Set, ForksLeft;
};
struct Charge {
  uint32_t Phase, Set;
  uint64_t Faults;
};

// The calling thread's guarded stretch of serial code: nesting depth, and
// where the outermost one started (0: it started inside a region, where
// nothing is timed).
__thread uint32_t SerialDepth = 0;
__thread uint64_t SerialStartNs = 0, SerialStartForkNs = 0, ForkNs = 0;
__thread uint32_t SerialSet = 0;

pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
uint64_t SerialNs[MaxSets];
TestSet Sets[MaxSets];
uint32_t NumSets = 0;
Block Blocks[MaxBlocks];
std::atomic<uint32_t> NumBlocks{0};
Charge Charges[MaxCharges];
uint32_t NumCharges = 0;

uint64_t pageSize() {
  static const uint64_t Size = uint64_t(sysconf(_SC_PAGESIZE));
  return Size;
}

/// Resident pages of \p B, or -1 when part of it is no longer mapped.
int64_t resident(const Block &B) {
  const uint64_t PageSize = pageSize();
  unsigned char Vec[1024];
  int64_t N = 0;
  for (uint64_t Done = 0; Done < B.Pages;) {
    uint64_t Chunk = B.Pages - Done < sizeof Vec ? B.Pages - Done : sizeof Vec;
    if (mincore(reinterpret_cast<void *>(B.Start + Done * PageSize), Chunk * PageSize, Vec) != 0)
      return -1;
    for (uint64_t I = 0; I < Chunk; ++I)
      N += Vec[I] & 1;
    Done += Chunk;
  }
  return N;
}

void dropBlock(uint32_t I) {
  uint32_t N = NumBlocks.load(std::memory_order_relaxed);
  Blocks[I] = Blocks[N - 1];
  NumBlocks.store(N - 1, std::memory_order_relaxed);
}

/// The index of the set \p Tests, copied in on first sight; MaxSets if full.
uint32_t internSet(const char *const *Tests, uint32_t N) {
  if (N > MaxTests)
    return MaxSets;
  for (uint32_t S = 0; S < NumSets; ++S) {
    bool Same = Sets[S].N == N;
    for (uint32_t I = 0; Same && I < N; ++I)
      Same = strcmp(Sets[S].Tests[I], Tests[I]) == 0;
    if (Same)
      return S;
  }
  if (NumSets == MaxSets)
    return MaxSets;
  TestSet &S = Sets[NumSets];
  for (uint32_t I = 0; I < N; ++I)
    if (!Tests[I] || !(S.Tests[I] = copyString(Tests[I])))
      return MaxSets;
  S.N = N;
  return NumSets++;
}

} // namespace

void guardedForkBegin() {
  if (NumBlocks.load(std::memory_order_relaxed) == 0)
    return;
  pthread_mutex_lock(&Lock);
  for (uint32_t I = NumBlocks.load(std::memory_order_relaxed); I-- > 0;) {
    int64_t R = resident(Blocks[I]);
    if (R < 0)
      dropBlock(I);
    else
      Blocks[I].Resident = uint64_t(R);
  }
  pthread_mutex_unlock(&Lock);
}

void guardedForkEnd(uint32_t Phase, uint64_t Faults) {
  if (NumBlocks.load(std::memory_order_relaxed) == 0)
    return;
  pthread_mutex_lock(&Lock);
  uint64_t Gained[MaxSets] = {}, Total = 0;
  for (uint32_t I = NumBlocks.load(std::memory_order_relaxed); I-- > 0;) {
    Block &B = Blocks[I];
    int64_t R = resident(B);
    if (R < 0) {
      dropBlock(I);
      continue;
    }
    if (uint64_t(R) > B.Resident) {
      Gained[B.Set] += uint64_t(R) - B.Resident;
      Total += uint64_t(R) - B.Resident;
    }
    B.Resident = uint64_t(R);
    if (B.Resident == B.Pages || --B.ForksLeft == 0)
      dropBlock(I);
  }
  for (uint32_t S = 0; S < NumSets && Total; ++S) {
    if (!Gained[S])
      continue;
    uint64_t F = Total > Faults ? uint64_t(double(Gained[S]) * double(Faults) / double(Total))
                                : Gained[S];
    uint32_t C = 0;
    while (C < NumCharges && (Charges[C].Phase != Phase || Charges[C].Set != S))
      ++C;
    if (C == NumCharges) {
      if (NumCharges == MaxCharges)
        continue; // the region keeps these faults at every count, as before
      Charges[NumCharges++] = {Phase, S, 0};
    }
    Charges[C].Faults += F;
  }
  pthread_mutex_unlock(&Lock);
}

void guardedForkTime(uint64_t Ns) { ForkNs += Ns; }

uint32_t guardedSerial(const char *const **Tests, uint32_t *Counts, double *Seconds, uint32_t Cap) {
  pthread_mutex_lock(&Lock);
  uint32_t N = 0;
  for (uint32_t S = 0; S < NumSets && N < Cap; ++S)
    if (SerialNs[S]) {
      Tests[N] = Sets[S].Tests;
      Counts[N] = Sets[S].N;
      Seconds[N++] = double(SerialNs[S]) * 1e-9;
    }
  pthread_mutex_unlock(&Lock);
  return N;
}

uint32_t guardedFaults(uint32_t Phase, const char *const **Tests, uint32_t *Counts,
                       uint64_t *Faults, uint32_t Cap) {
  pthread_mutex_lock(&Lock);
  uint32_t N = 0;
  for (uint32_t C = 0; C < NumCharges && N < Cap; ++C)
    if (Charges[C].Phase == Phase && Charges[C].Faults) {
      Tests[N] = Sets[Charges[C].Set].Tests;
      Counts[N] = Sets[Charges[C].Set].N;
      Faults[N++] = Charges[C].Faults;
    }
  pthread_mutex_unlock(&Lock);
  return N;
}

} // namespace __phaseprobe

using namespace __phaseprobe;

extern "C" {

void __phaseprobe_alloc_note(void *P, uint64_t Bytes) {
  NoteP = P;
  NoteBytes = Bytes;
}

void __phaseprobe_guarded_alloc(void *P, const char *const *Tests, uint32_t Count) {
  if (!P || P != NoteP || !Tests || Count == 0)
    return;
  uint64_t Bytes = NoteBytes;
  NoteP = nullptr;
  const uint64_t PageSize = pageSize();
  uintptr_t Start = (uintptr_t(P) + PageSize - 1) & ~uintptr_t(PageSize - 1);
  uintptr_t End = (uintptr_t(P) + Bytes) & ~uintptr_t(PageSize - 1);
  if (End <= Start)
    return; // no page of its own
  ensureStarted();
  pthread_mutex_lock(&Lock);
  uint32_t Set = internSet(Tests, Count);
  if (Set < MaxSets) {
    Block B{Start, (End - Start) / PageSize, 0, Set, ForksTracked};
    // A block at addresses a tracked one had: that one was freed.
    for (uint32_t I = NumBlocks.load(std::memory_order_relaxed); I-- > 0;) {
      const Block &O = Blocks[I];
      if (O.Start < End && B.Start < O.Start + O.Pages * PageSize)
        dropBlock(I);
    }
    int64_t R = resident(B);
    uint32_t N = NumBlocks.load(std::memory_order_relaxed);
    if (R >= 0 && uint64_t(R) < B.Pages && N < MaxBlocks) {
      B.Resident = uint64_t(R);
      Blocks[N] = B;
      NumBlocks.store(N + 1, std::memory_order_relaxed);
    }
  }
  pthread_mutex_unlock(&Lock);
}

void __phaseprobe_serial_guard_begin(const char *const *Tests, uint32_t Count) {
  if (SerialDepth++ || !Tests || Count == 0 || currentPhase() != NoPhase) {
    SerialStartNs = SerialDepth == 1 ? 0 : SerialStartNs;
    return;
  }
  pthread_mutex_lock(&Lock);
  uint32_t Set = internSet(Tests, Count);
  pthread_mutex_unlock(&Lock);
  if (Set == MaxSets) {
    SerialStartNs = 0;
    return;
  }
  SerialSet = Set;
  SerialStartForkNs = ForkNs;
  SerialStartNs = nowNs();
}

void __phaseprobe_serial_guard_end(void) {
  if (SerialDepth == 0 || --SerialDepth || SerialStartNs == 0)
    return;
  uint64_t Ns = nowNs() - SerialStartNs, InRegions = ForkNs - SerialStartForkNs;
  SerialStartNs = 0;
  if (Ns <= InRegions)
    return;
  pthread_mutex_lock(&Lock);
  SerialNs[SerialSet] += Ns - InRegions;
  pthread_mutex_unlock(&Lock);
}

} // extern "C"
