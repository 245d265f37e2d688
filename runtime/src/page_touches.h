//===- page_touches.h - Which threads wrote and read a page, per phase -*- C++ -*-===//
//
// A sweep that splits an array otherwise than the sweep before it finds a
// part of its lines in another core's cache, modified: each such access
// waits for a hand-over (a cache-to-cache transfer, across L3s or sockets on
// many nodes) that no walk of a thread's own slice pays, and that one thread
// never pays. A stream's footprint and stride do not show it; this does.
//
// Sampling sees one iteration in a thousand, so the last sampled write of a
// line is rarely its last write. What does hold across a run is the split:
// a static schedule gives a page to the same threads in every invocation of
// a phase. So the samples only mark, per (phase, page), which threads wrote
// and which accessed it (two bit masks, one bit per thread); store sites'
// extrapolated ranges mark the pages their bursts missed (markWritten:
// bursts sample the start of loop executions); each site keeps a sample of
// the pages it touched (PageRead, the stream analysis' reservoir); and the
// order of the phases comes from the phase runtime, which sees every
// invocation begin (PhaseOrder). At exit, for each such page of a phase B's
// site, the last phase before B that wrote the site's pages is the writer;
// the access is handed over by the share of the writer's threads that are
// not the accessing thread, unless that thread touched the page in a phase
// run between the two (it holds a copy since). The answer is a share per
// (phase, site): summarize().
//
// One thread, or a page no sampled store reached: nothing is handed over,
// or nothing is known. Dynamic schedules, whose pages change threads from
// one invocation to the next, read as shared by all their threads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rt_vec.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace __phaseprobe {
namespace streams {

/// Which invocation of every phase began last, on one clock shared by all
/// phases (the phase runtime calls begin() from every thread's share).
class PhaseOrder {
public:
  static constexpr std::uint32_t MaxPhases = 4096;
  /// A thread begins its share of invocation \p Invocation (1, 2, ...) of
  /// \p Phase; the first thread to do so ticks the clock.
  void begin(std::uint32_t Phase, std::uint64_t Invocation);
  /// The tick of \p Phase's last invocation, of the one before it and of
  /// its first (0: none).
  std::uint64_t last(std::uint32_t Phase) const;
  std::uint64_t previous(std::uint32_t Phase) const;
  std::uint64_t first(std::uint32_t Phase) const;
  /// Invocations of \p Phase begun so far.
  std::uint64_t invocations(std::uint32_t Phase) const;
  /// The latest invocation of \p Phase that began before tick \p Before (0:
  /// none known).
  std::uint64_t latestBefore(std::uint32_t Phase, std::uint64_t Before) const;
  void clear();
  static PhaseOrder &process();

private:
  struct Entry {
    std::atomic<std::uint64_t> Invocation{0}, Last{0}, Previous{0}, First{0};
  };
  std::atomic<std::uint64_t> Clock{0};
  Entry Phases[MaxPhases];
};

/// Hand-over of one (phase, site): page-thread pairs whose writer is known,
/// the handed-over share of them summed, and the writer's invocations (how
/// many times at most the data was handed over, at its first touch after
/// each).
struct SiteHandover {
  std::uint32_t Phase;
  const void *Site;
  double Known = 0, Handed = 0;
  double Rounds = 0;
};
/// summarize()'s order: by phase, then site.
inline bool siteHandoverLess(const SiteHandover &A, const SiteHandover &B) {
  return A.Phase != B.Phase ? A.Phase < B.Phase : A.Site < B.Site;
}

/// A page a site of a phase touched, by the thread of bit Bit, first at
/// byte Offset of the page.
struct PageRead {
  std::uint32_t Phase;
  const void *Site;
  std::uint64_t Page;
  std::uint64_t Bit;
  std::uint32_t Offset = 0;
};

class PageTouches {
public:
  static constexpr unsigned PageShift = 12;
  static constexpr unsigned SlotBits = 17; ///< 8 MiB of slots, paged in as used

  struct Entry {
    std::atomic<std::uint64_t> Tag{0}; ///< 0: free
    std::uint64_t Page = 0;
    std::uint32_t Phase = 0;
    std::atomic<std::uint64_t> Wrote{0}, Accessed{0};
    /// Where a thread's store range begins (Above: its bit) or ends (Below)
    /// inside the page, from markWritten: a static split's edge page, the
    /// lines before Split one thread's and those from it another's.
    /// NoSplit: none seen; ConflictingSplits: ranges edge at several places.
    std::uint32_t Split = NoSplit;
    std::uint64_t Above = 0, Below = 0;
  };
  static constexpr std::uint32_t NoSplit = ~std::uint32_t(0);
  static constexpr std::uint32_t ConflictingSplits = NoSplit - 1;

  /// The entry of (\p Phase, page of \p Addr), made on first use; null
  /// when the table is full (the sample is then not marked).
  Entry *find(std::uint32_t Phase, std::uintptr_t Addr);
  /// One sampled access by the thread of bit \p Bit.
  static void mark(Entry &E, std::uint64_t Bit, bool Store) {
    if (!(E.Accessed.load(std::memory_order_relaxed) & Bit))
      E.Accessed.fetch_or(Bit, std::memory_order_relaxed);
    if (Store && !(E.Wrote.load(std::memory_order_relaxed) & Bit))
      E.Wrote.fetch_or(Bit, std::memory_order_relaxed);
  }
  static std::uintptr_t pageOf(std::uintptr_t Addr) { return Addr >> PageShift; }
  /// The pages of [\p Lo, \p Hi) written by the thread of bit \p Bit in
  /// \p Phase, as the stream analysis extrapolates a store site's range:
  /// bursts sample the start of a loop's executions only, so a loop whose
  /// execution is a thread's whole share (a vector update) leaves most of
  /// the pages it writes unsampled. A range over MaxRangePages pages is
  /// left out. An end of the range inside a page is that page's Split.
  void markWritten(std::uint32_t Phase, std::uintptr_t Lo, std::uintptr_t Hi, std::uint64_t Bit);
  static constexpr std::uint64_t MaxRangePages = std::uint64_t(1) << 16;

  /// Every (phase, site)'s hand-over over the pages \p Reads says it
  /// touched (sorted here), in \p Order's phase order, sorted by
  /// siteHandoverLess. Call when the threads are done.
  void summarize(const PhaseOrder &Order, Vec<PageRead> &Reads, Vec<SiteHandover> &Out) const;
  std::uint64_t dropped() const { return Dropped.load(std::memory_order_relaxed); }
  void clear();
  static PageTouches &process();

private:
  static constexpr std::size_t NumSlots = std::size_t(1) << SlotBits;
  static constexpr std::size_t MaxProbes = 32;
  std::atomic<std::uint64_t> Dropped{0};
  Entry Slots[NumSlots];
};

} // namespace streams
} // namespace __phaseprobe
