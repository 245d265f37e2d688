//===- scan_bench.cpp - How fast the matcher can read the NPPDB ------------===//
//
// Fills an NPPDB with N profiles of one node and one thread count (the worst
// case for the matcher: every profile is a candidate), spread over 1, 2 and 3
// streams, then times Nppdb::scan over every stream count (all N rows: what
// matching one 3-stream phase visits when each stream count is read once)
// and with a +-20 % range on the first footprint (what a pruning matcher
// reads). Usage: scan_bench DB N. Prints "key value" lines.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/nppdb.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <unistd.h>

using namespace phaseprobe;

static double cpu() { return double(std::clock()) / CLOCKS_PER_SEC; }

static double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    std::fprintf(stderr, "usage: scan_bench DB N\n");
    return 2;
  }
  std::string Path = Argv[1];
  long N = std::atol(Argv[2]);
  ::unlink(Path.c_str());
  auto Db = Nppdb::open(Path, Nppdb::Mode::Create);
  std::mt19937 Rng(1);
  std::uniform_real_distribution<double> LogFp(2, 20), Tpi(1e-3, 1);
  double T0 = now();
  Db->transaction([&] {
    Db->ensureNode("bn");
    for (long I = 0; I < N; ++I) {
      Profile P;
      P.node = "bn";
      P.ubench = "u" + std::to_string(I); // unique: no key clashes
      P.threads = 4;
      unsigned NS = 1 + unsigned(I % 3);
      for (unsigned K = 0; K < NS; ++K) {
        StreamTuple T;
        T.footprintKiB = std::round(std::exp2(LogFp(Rng)));
        T.strideBytes = 8 << (I % 7);
        T.elemBytes = 8;
        T.access = Access(K % 2);
        P.streams.push_back(T);
      }
      P.tpiUs = Tpi(Rng);
      P.params = {{"kernel", "sum"}};
      Db->addProfile(P, 0, false);
    }
  });
  double Fill = now() - T0;
  Db.reset();
  Db = Nppdb::open(Path, Nppdb::Mode::ReadOnly);
  double LastCpu = 0;
  auto Scan = [&](std::optional<std::pair<double, double>> Range, long &Rows) {
    Rows = 0;
    double Sum = 0;
    double S = now(), C = cpu();
    for (unsigned NS = 1; NS <= 3; ++NS) {
      Nppdb::ScanFilter F;
      F.Node = "bn";
      F.Threads = 4;
      F.NStreams = NS;
      F.FirstFootprintKiB = Range;
      Db->scan(F, [&](const Nppdb::ProfileView &V) {
        ++Rows;
        Sum += V.Streams[V.NStreams - 1].footprintKiB + V.TpiUs; // touch every row
      });
    }
    if (Sum < 0)
      std::printf("impossible\n");
    LastCpu = cpu() - C;
    return now() - S;
  };
  long Rows = 0, RangeRows = 0;
  Scan(std::nullopt, Rows); // warm the page cache
  double Full = Scan(std::nullopt, Rows);
  double FullCpu = LastCpu;
  double Ranged = Scan(std::make_pair(15000.0 * 0.8, 15000.0 * 1.2), RangeRows);
  std::printf("profiles %ld\nfill_s %.3f\nscan_all_rows %ld\nscan_all_s %.3f\n"
              "scan_all_cpu_s %.3f\nscan_range_rows %ld\nscan_range_s %.4f\n",
              N, Fill, Rows, Full, FullCpu, RangeRows, Ranged);
  return 0;
}
