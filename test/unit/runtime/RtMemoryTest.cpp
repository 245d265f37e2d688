// The runtime's own memory (rt_memory.h): calloc/realloc/free semantics on
// mappings apart from the program's heap.
#include "rt_memory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <malloc.h>
#include <vector>

using namespace __phaseprobe;

namespace {

bool allZero(const void *P, std::size_t N) {
  const auto *B = static_cast<const unsigned char *>(P);
  for (std::size_t I = 0; I < N; ++I)
    if (B[I])
      return false;
  return true;
}

TEST(RtMemory, CallocIsZeroedAndAlignedEvenWhenABlockIsReused) {
  for (std::size_t Size : {1u, 40u, 100u, 1000u, 4000u, 100000u}) {
    auto *P = static_cast<unsigned char *>(rtCalloc(1, Size));
    ASSERT_NE(P, nullptr) << Size;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(P) % 16, 0u) << Size;
    EXPECT_TRUE(allZero(P, Size)) << Size;
    std::memset(P, 0xab, Size);
    rtFree(P);
    // The same size class hands the dirty block back: it must come zeroed.
    auto *Q = static_cast<unsigned char *>(rtCalloc(Size, 1));
    ASSERT_NE(Q, nullptr);
    EXPECT_TRUE(allZero(Q, Size)) << Size;
    rtFree(Q);
  }
}

TEST(RtMemory, ReallocKeepsTheContentsAcrossSmallAndLargeBlocks) {
  void *P = nullptr;
  std::size_t Size = 8;
  P = rtRealloc(P, Size);
  ASSERT_NE(P, nullptr);
  std::memset(P, 1, Size);
  for (std::size_t Next = 16; Next <= (1u << 20); Next *= 2) {
    void *Q = rtRealloc(P, Next);
    ASSERT_NE(Q, nullptr) << Next;
    auto *B = static_cast<unsigned char *>(Q);
    for (std::size_t I = 0; I < Size; ++I)
      ASSERT_EQ(B[I], (I < 8 ? 1 : 2)) << "byte " << I << " after growing to " << Next;
    std::memset(B + Size, 2, Next - Size);
    P = Q, Size = Next;
  }
  // Shrinking keeps the block.
  EXPECT_EQ(rtRealloc(P, 4), P);
  rtFree(P);
}

TEST(RtMemory, OverflowAndNullAreRefusedQuietly) {
  EXPECT_EQ(rtCalloc(SIZE_MAX / 2, 4), nullptr);
  EXPECT_EQ(rtCalloc(1, SIZE_MAX - 8), nullptr);
  rtFree(nullptr);
  void *P = rtCalloc(1, 64);
  rtFree(P);
  rtFree(P); // a second free of a small block is ignored, not a corruption
  void *A = rtCalloc(1, 64), *B = rtCalloc(1, 64);
  EXPECT_NE(A, B);
  rtFree(A);
  rtFree(B);
}

TEST(RtMemory, LeavesTheProgramsHeapAlone) {
  // The point of rt_memory.h: nothing the runtime keeps lands on malloc's
  // heap, where it would change how the program's own heap behaves.
  std::size_t Before = mallinfo2().uordblks;
  std::vector<void *> Blocks;
  for (int I = 0; I < 1000; ++I)
    Blocks.push_back(rtCalloc(1, 24 + I * 7));
  std::size_t During = mallinfo2().uordblks;
  for (void *P : Blocks)
    rtFree(P);
  Blocks.shrink_to_fit();
  // The vector itself is on the heap: allow for it and nothing more.
  EXPECT_LE(During - Before, 1000 * sizeof(void *) * 2);
}

} // namespace
