//===- rt_memory.cpp - The runtime's memory, apart from the program's heap ===//
//
// Blocks up to 256 KiB (records, slot arrays, growing arrays) come from
// 4 MiB mapped chunks in power-of-two size classes with a free list per
// class; anything larger is a mapping of its own. The runtime allocates
// rarely (a thread, a phase, a sampled site: never per sample), so one mutex
// is enough; fork handlers keep a child from inheriting it locked.
//
//===----------------------------------------------------------------------===//
#include "rt_memory.h"

#include <cstdint>
#include <cstring>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace __phaseprobe {
namespace {

struct alignas(16) Header {
  std::size_t Usable;  ///< bytes the caller may use
  std::uint32_t Class; ///< size class, or Large
  std::uint32_t Magic;
};
static_assert(sizeof(Header) == 16, "blocks stay 16-byte aligned");

constexpr std::uint32_t Large = 0xffffffffu;
constexpr std::uint32_t MagicValue = 0x70707274u; // "pprt"
// Blocks of 64 B .. 256 KiB. Growing arrays (a site's invocation ranges)
// step through the classes; were their larger steps mappings of their own,
// every step would map and unmap, and unmapping with threads running costs
// a TLB shootdown: NPB BT class W made 8600 munmap calls that way.
constexpr int NumClasses = 13;
constexpr std::size_t ChunkBytes = std::size_t(4) << 20;

struct FreeBlock {
  FreeBlock *Next;
};

pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
pthread_once_t ForkOnce = PTHREAD_ONCE_INIT;
FreeBlock *FreeLists[NumClasses] = {};
char *ChunkCursor = nullptr, *ChunkEnd = nullptr;

void lockForFork() { pthread_mutex_lock(&Lock); }
void unlockAfterFork() { pthread_mutex_unlock(&Lock); }
void installForkHandlers() { pthread_atfork(lockForFork, unlockAfterFork, unlockAfterFork); }

std::size_t blockBytes(int Class) { return std::size_t(64) << Class; }

void *mapBytes(std::size_t Bytes) {
  void *M = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return M == MAP_FAILED ? nullptr : M;
}

std::size_t pageBytes() {
  long P = sysconf(_SC_PAGESIZE);
  return P > 0 ? std::size_t(P) : 4096;
}

/// A block of at least \p Size usable bytes; \p Zeroed says whether its
/// contents are already zero (fresh mappings are).
Header *allocate(std::size_t Size, bool &Zeroed) {
  if (Size > (SIZE_MAX >> 2))
    return nullptr;
  std::size_t Total = Size + sizeof(Header);
  int Class = 0;
  while (Class < NumClasses && blockBytes(Class) < Total)
    ++Class;
  if (Class == NumClasses) {
    std::size_t Page = pageBytes();
    std::size_t Bytes = (Total + Page - 1) / Page * Page;
    auto *H = static_cast<Header *>(mapBytes(Bytes));
    if (!H)
      return nullptr;
    *H = Header{Bytes - sizeof(Header), Large, MagicValue};
    Zeroed = true;
    return H;
  }
  pthread_once(&ForkOnce, installForkHandlers);
  std::size_t Bytes = blockBytes(Class);
  Header *H = nullptr;
  pthread_mutex_lock(&Lock);
  if (FreeBlock *F = FreeLists[Class]) {
    FreeLists[Class] = F->Next;
    H = reinterpret_cast<Header *>(F);
    Zeroed = false;
  } else {
    if (std::size_t(ChunkEnd - ChunkCursor) < Bytes) {
      // The rest of the old chunk is abandoned: less than the block.
      auto *C = static_cast<char *>(mapBytes(ChunkBytes));
      if (C)
        ChunkCursor = C, ChunkEnd = C + ChunkBytes;
    }
    if (std::size_t(ChunkEnd - ChunkCursor) >= Bytes) {
      H = reinterpret_cast<Header *>(ChunkCursor);
      ChunkCursor += Bytes;
      Zeroed = true;
    }
  }
  pthread_mutex_unlock(&Lock);
  if (H)
    *H = Header{Bytes - sizeof(Header), std::uint32_t(Class), MagicValue};
  return H;
}

Header *headerOf(void *P) { return static_cast<Header *>(P) - 1; }

} // namespace

void *rtCalloc(std::size_t N, std::size_t Size) {
  if (Size && N > SIZE_MAX / Size)
    return nullptr;
  bool Zeroed = false;
  Header *H = allocate(N * Size, Zeroed);
  if (!H)
    return nullptr;
  if (!Zeroed)
    std::memset(H + 1, 0, H->Usable);
  return H + 1;
}

void *rtRealloc(void *P, std::size_t Size) {
  if (!P)
    return rtCalloc(1, Size);
  Header *Old = headerOf(P);
  if (Size <= Old->Usable)
    return P;
  bool Zeroed = false;
  Header *H = allocate(Size, Zeroed);
  if (!H)
    return nullptr;
  std::memcpy(H + 1, P, Old->Usable);
  rtFree(P);
  return H + 1;
}

void rtFree(void *P) {
  if (!P)
    return;
  Header *H = headerOf(P);
  if (H->Magic != MagicValue)
    return; // not ours: leaking beats corrupting the program's memory
  if (H->Class == Large) {
    munmap(H, H->Usable + sizeof(Header));
    return;
  }
  std::uint32_t Class = H->Class;
  H->Magic = 0; // a second free of the block is ignored
  auto *F = reinterpret_cast<FreeBlock *>(H);
  pthread_mutex_lock(&Lock);
  F->Next = FreeLists[Class];
  FreeLists[Class] = F;
  pthread_mutex_unlock(&Lock);
}

} // namespace __phaseprobe
