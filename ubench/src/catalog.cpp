//===- catalog.cpp - The uBs, their grids and user parameter lists ----------===//
//
// The catalogue keeps METHOD.md's names for the uBs the original study had
// (mbw1c, mbw1p, mbw2hc, mbw2pc, mbw2r) and adds the variants issue 4 asks
// for. Grids are built from the node's own cache sizes so that every node is
// measured from inside its L1 to beyond its last-level cache.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"
#include "phaseprobe/ubench.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <set>
#include <unistd.h>

namespace phaseprobe {

const std::vector<UBenchDef> &ubenchCatalog() {
  static const std::vector<UBenchDef> C = {
      // name     kernel    type      acc    pat    ops
      {"mbw1c", "sum", "double", "c", "s", "load", "read-reduce one shared stream (sum += a[i])"},
      {"mbw1p", "sum", "double", "p", "s", "load", "read-reduce one private stream"},
      {"mbw1cf", "sum", "float", "c", "s", "load", "mbw1c on float"},
      {"mbw1pf", "sum", "float", "p", "s", "load", "mbw1p on float"},
      {"mbw1ci", "sum", "int", "c", "s", "load", "mbw1c on int (64-bit accumulator)"},
      {"mbw1pi", "sum", "int", "p", "s", "load", "mbw1p on int"},
      {"mbw1cr", "sum", "double", "c", "r", "load", "read-reduce one shared random stream"},
      {"mbw1pr", "sum", "double", "p", "r", "load", "read-reduce one private random stream"},
      {"mbw2hc", "madd", "double", "cc", "ss", "load;load",
       "two shared streams, product and sum (sum += a[i]*b[j])"},
      {"mbw2hp", "madd", "double", "pp", "ss", "load;load", "mbw2hc with private streams"},
      {"mbw2pc", "add2", "float", "cc", "ss", "load;load",
       "two shared streams of float, sum (sum += a[i]+b[j])"},
      {"mbw2pp", "add2", "float", "pp", "ss", "load;load", "mbw2pc with private streams"},
      {"mbw2r", "madd", "double", "cc", "sr", "load;load",
       "one strided and one random shared stream, product and sum"},
      // Added for phase clones: a private stream with a shared one, as in a
      // matrix product's row-of-A × column-of-B (mm's main phase).
      {"mbw2hpc", "madd", "double", "pc", "ss", "load;load",
       "one private and one shared stream, product and sum"},
      {"cpy2p", "copy", "double", "pp", "ss", "load;store", "copy b[j] = a[i], private"},
      {"cpy2pf", "copy", "float", "pp", "ss", "load;store", "cpy2p on float"},
      {"mbw3c", "sum3", "double", "ccc", "sss", "load;load;load",
       "three shared streams, sum (sum += a[i]+b[j]+c[k])"},
      {"tri3p", "triad", "double", "ppp", "sss", "store;load;load",
       "triad a[i] = b[j] + 3*c[k], private"},
      // BLAS-1 daxpy: a vector updated in place from another (a Krylov
      // solver's x += alpha p; HPCCG's waxpby whenever w is x). Two loads
      // and a store an iteration on two arrays, where upd1p walks one and
      // tri3p writes a third.
      {"axpy2p", "axpy", "double", "pp", "ss", "load+store;load",
       "daxpy a[i] = a[i] + 3*b[j], private"},
      {"upd1p", "update", "double", "p", "s", "load+store", "in-place update a[i] = 3*a[i]+1"},
      {"upd1pf", "update", "float", "p", "s", "load+store", "upd1p on float"},
      // A shared stream that is written: the threads of a sweep along a
      // slow axis write their own lines of one array (the example bt's z
      // sweep, schedule(dynamic, 4): the runtime sees the threads' spans
      // coincide and calls the stream shared). Each thread updates its
      // share of the columns, every one walked down the whole region. On
      // the AMD EPYC VM, against the z sweep at one and two threads,
      // upd1c+k7 on its stream ran 0.97x and 1.03x unpadded, mbw1c+k7
      // 0.25x and 0.27x (bench/results/clone-shape-2026-11-27-bt-z-sweep-
      // epyc-upd1c.txt); phase clones measure it beside the padded
      // read-only walk (clone.cpp).
      {"upd1c", "update", "double", "c", "s", "load+store",
       "in-place update of a shared stream, its threads splitting its columns"},
      {"upd1cf", "update", "float", "c", "s", "load+store", "upd1c on float"},
      {"st1p", "store", "double", "p", "s", "store", "store-only a[i] = r"},
      {"st1pi", "store", "int", "p", "s", "store", "st1p on int"},
      // A CSR sparse matrix-vector product's inner loop (NPB CG): two
      // private streams, the matrix and its int column indices, and a
      // shared vector gathered through them. The dependent sums above run
      // at the add's latency at any footprint; this one streams 12 bytes
      // an iteration and gathers, and over CG A's arrays scales 2.2x from
      // two cores to one where they scale 2.0x
      // (bench/results/gather-scaling-2026-11-24*.txt).
      {"spmv3", "gather", "double", "ppc", "ssr", "load;load;load",
       "sparse matrix-vector product: sum += a[i] * x[idx[i]] (a, int idx private; x shared, gathered)",
       "8;4;8"},
      // The same product over a banded matrix (a stencil's: Mantevo
      // HPCCG's 27-point problem): each row reads the elements of x around
      // its diagonal, so x is private and strided, and each row sums on
      // its own, so the rows' sums overlap and the loop streams as fast as
      // memory allows, where spmv3 and the read-reduce uBs wait for the add
      // at every element (ubench/README.md).
      {"spmv3p", "gather", "double", "ppp", "sss", "load;load;load",
       "sparse matrix-vector product over a banded matrix: rows of sum += a[i] * x[idx[i]], idx ascending "
       "(a, int idx, x private)",
       "8;4;8"},
      // Synchronization: mbw1p with a barrier after every sweep. Against
      // mbw1p at the same footprint it gives a node's cost per barrier at
      // that much work between barriers (the estimator's sync term).
      {"bar1p", "sumb", "double", "p", "s", "load",
       "mbw1p with a barrier after every sweep (cost per barrier)"},
      // ... and with a spin-wait handoff between neighbouring threads after
      // every sweep (NPB LU's pipeline): the cost of one handoff round.
      {"spin1p", "sumf", "double", "p", "s", "load",
       "mbw1p with a spin-wait handoff to the next thread after every sweep (cost per round)"},
      // ... and with every sweep an `omp for nowait` invocation of its own:
      // a node's fixed cost of a worksharing loop's invocation, which a
      // loop of a few short rows pays beside its work at any thread count
      // (NPB SP W's lhs loops: 463,556 invocations of 0.4-0.5 us, as long
      // at two threads as at one; bench/results/invocation-cost-2026-11-29-
      // xeon.txt: 0.3 us an invocation at one thread and at two).
      {"inv1p", "sumw", "double", "p", "s", "load",
       "mbw1p with every sweep an omp for invocation of its own (cost per invocation)"},
      // Page faults: a store to every page of a thread's slice, given back
      // to the system before every sweep: a node's cost of one first-touch
      // fault (a program that maps its temporaries afresh every step pays
      // it: the estimator's fault term).
      {"pf1p", "touch", "double", "p", "s", "store",
       "a store to every page of a slice just given back to the system (cost per page fault)"},
      // The same sweeps, the master's give-back after each timed: what the
      // serial code that frees those temporaries spends per page, dearer
      // where the team touched them from other CPUs (TLB shootdowns).
      {"gb1p", "release", "double", "p", "s", "store",
       "the master giving back to the system a stream the team just stored to every page of "
       "(cost per page)"},
      // Hand-over: an update whose sweeps deal 64 KiB blocks out to other
      // threads than the sweep before (ho1p), beside the same sweeps dealt
      // out the same way every time (hk1p): per line handed over, what a phase pays for data another thread wrote
      // last (the runtime's handover_share; the estimator's hand-over
      // term). NPB BT's x and y Jacobian sweeps split j, then i, over the
      // same arrays; such a sweep took 1.87x the time of one split the
      // same way with the two vCPUs on two L3s of the AMD EPYC VM, 1.33x
      // on one, 1.00x at one thread
      // (bench/results/partition-flip-2026-11-29.txt).
      {"ho1p", "flip", "double", "p", "s", "load+store",
       "an update dealt out in 64 KiB blocks to other threads than the sweep before (cost per line handed over)"},
      {"hk1p", "keep", "double", "p", "s", "load+store",
       "ho1p's sweeps dealt out the same way every time (its reference)"},
      {"cadd", "cadd", "double", "c", "s", "load",
       "compute: 4 add chains x 4 per element of a 4 KiB L1 stream"},
      {"cmul", "cmul", "double", "c", "s", "load", "compute: 4 mul chains x 4"},
      {"cfma", "cfma", "double", "c", "s", "load", "compute: 4 multiply-add chains x 4"},
      {"caddf", "cadd", "float", "c", "s", "load", "cadd on float"},
      {"cmulf", "cmul", "float", "c", "s", "load", "cmul on float"},
      {"cfmaf", "cfma", "float", "c", "s", "load", "cfma on float"},
      // Division and square root, for the estimator's op mix: a node's
      // dividers and square-root units are their own (bt's recurrences).
      {"cdiv", "cdiv", "double", "c", "s", "load", "compute: 4 division chains x 4 (c = y / c)"},
      {"csqrt", "csqrt", "double", "c", "s", "load",
       "compute: 4 square-root chains x 4 (c = sqrt(c + x))"},
      // The same operations as independent work: 16 chains, one step each
      // per element, more than a core keeps in flight, so the pipes'
      // throughput rather than an operation's latency. A loop whose
      // iterations are independent runs at that, and two designs' ratios
      // of the two differ (one has more adders, the other shorter ones).
      {"tadd", "ctadd", "double", "c", "s", "load",
       "compute: 16 independent add chains x 1 per element (throughput)"},
      {"tmul", "ctmul", "double", "c", "s", "load",
       "compute: 16 independent mul chains x 1 (throughput)"},
  };
  return C;
}

bool isSearchJump(double RegionElems, double JumpElems) {
  // Mirrors run_config in ubench_kernels.c (2^30: its step arithmetic).
  return JumpElems > 1 && 3 * JumpElems < RegionElems && JumpElems < 1073741824.0;
}

bool UBenchDef::splitsColumns(std::size_t Q) const {
  std::vector<std::string> O = split(ops, ';');
  return Q < access.size() && access[Q] == 'c' && Q < O.size() &&
         O[Q].find("store") != std::string::npos;
}

unsigned UBenchDef::elemBytes(std::size_t Q) const {
  std::vector<std::string> E = split(elems, ';');
  return Q < E.size() && !E[Q].empty() ? unsigned(std::stoul(E[Q])) : elemBytes();
}

const UBenchDef *findUBench(const std::string &Name) {
  for (const UBenchDef &D : ubenchCatalog())
    if (D.name == Name)
      return &D;
  return nullptr;
}

bool UBenchConfig::hasWindows() const {
  return std::any_of(windowAccesses.begin(), windowAccesses.end(),
                     [](double W) { return W > 0; });
}

std::string UBenchConfig::requested() const {
  std::string S;
  for (std::size_t I = 0; I < footprintKiB.size(); ++I) {
    S += (I ? ";" : "") + formatNumber(footprintKiB[I]) + ":" + formatNumber(strideBytes[I]);
    if (I < windowAccesses.size() && windowAccesses[I] > 0)
      S += ":" + formatNumber(windowAccesses[I]);
  }
  return S;
}

bool UBenchConfig::spans(std::size_t Q) const {
  return span > 0 && Q < strideBytes.size() && def->pattern[Q] == 's' && !def->gathered(Q) &&
         strideBytes[Q] > def->elemBytes(Q);
}

bool UBenchConfig::rows() const {
  return span > 0 && def->kernel == "gather" && def->gathered(2);
}

std::string UBenchConfig::name() const {
  std::string N = def->name;
  if (every > 1)
    N += "+e" + std::to_string(every);
  if (hasWindows())
    N += "+r" + std::to_string(repeats);
  if (span)
    N += (jumps ? "+j" : "+c") + std::to_string(span);
  if (copies > 1)
    N += "+k" + std::to_string(copies);
  if (work)
    N += "+w" + std::to_string(work) + (workEvery > 1 ? "/" + std::to_string(workEvery) : "");
  return N;
}

RepPolicy repPolicy(GridLevel L) {
  RepPolicy P;
  switch (L) {
  case GridLevel::Quick:
    // 10 ms repetitions and at least 5 of them: with 1 ms ones, one
    // preemption on a loaded machine (another job's time slice) made a
    // repetition several times longer and kept CVs over 100% (see
    // bench/ubench/quick_noise.py); the grid stays within a minute per
    // thread count on 2 cores.
    P.minReps = 5, P.maxReps = 20, P.cvPct = 5, P.capS = 1.0, P.minRepS = 0.01;
    break;
  case GridLevel::Default:
    P.minReps = 5, P.maxReps = 30, P.cvPct = 2, P.capS = 0.3, P.minRepS = 0.002;
    break;
  case GridLevel::Full:
    P.minReps = 10, P.maxReps = 50, P.cvPct = 1, P.capS = 3, P.minRepS = 0.005;
    break;
  }
  return P;
}

namespace {

/// A footprint rounded to whole KiB (at least 1), so grids are readable.
double kib(double V) { return std::max(1.0, std::round(V)); }

/// pf1p's stride: one store per page (the kernel checks it is the page size).
const double PageBytes = double(sysconf(_SC_PAGESIZE));

std::vector<double> uniq(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
  return V;
}

/// Whether the kernel can walk this stream as declared (see the kernel's
/// 4-strides rule): a strided stream needs >= 4 strides per thread region.
bool valid(const UBenchDef &D, std::size_t Q, double K, double S, unsigned MaxThreads) {
  double Bytes = K * 1024;
  if (D.access[Q] == 'p')
    Bytes /= MaxThreads;
  double E = D.elemBytes(Q);
  if (Bytes < 2 * E)
    return false;
  if (D.pattern[Q] == 'r' || D.compute())
    return true;
  // A written shared stream: a column per thread (ubench_kernels.c).
  if (D.splitsColumns(Q) && S < E * MaxThreads)
    return false;
  return S >= E && std::fmod(S, E) == 0 && Bytes >= 4 * S;
}

/// Whether random stream 0 of \p D at footprint \p K is walked as a search
/// with mean jump \p J bytes at up to \p MaxThreads threads (the kernel
/// rounds a region down to a power of two elements).
bool isSearch(const UBenchDef &D, double K, double J, unsigned MaxThreads) {
  double E = D.elemBytes();
  double Slice = K * 1024 / E / (D.access[0] == 'p' ? MaxThreads : 1);
  return isSearchJump(std::exp2(std::floor(std::log2(std::max(1.0, Slice)))),
                      std::round(J / E));
}

} // namespace

std::vector<UBenchConfig> makeGrid(GridLevel Level, double L1, double L2, double L3,
                                   unsigned MaxThreads,
                                   const std::vector<const UBenchDef *> &Only) {
  if (L1 <= 0)
    L1 = 32;
  if (L2 <= 0)
    L2 = std::max(256.0, 8 * L1);
  double LLC = L3 > 0 ? L3 : L2;
  MaxThreads = std::max(1u, MaxThreads);
  std::vector<double> FP, FPSmall;
  std::vector<double> Strides; // multiples of 8 bytes; element-size strides added per uB
  // Mean jumps of random streams walked as searches (ubench_kernels.c), 16x
  // apart in the default grid, 4x in the full one: the matcher keeps a
  // profile whose stride is within 80% of the phase's, so 16 KiB serves
  // XSBench's 21 KB searches.
  std::vector<double> Jumps;
  switch (Level) {
  case GridLevel::Quick:
    FP = {kib(L1 / 2), kib(L2 / 2), kib(2 * LLC)};
    FPSmall = {kib(L2 / 2)};
    Strides = {64, 4096};
    break;
  case GridLevel::Default:
    // Sized to stay within 5 minutes on 2 cores for 2 thread counts: the
    // footprints beyond the LLC dominate the time, so there is one of them.
    FP = {kib(L1 / 2), kib(2 * L1), kib(L2 / 2), kib(2 * L2), kib(LLC / 2), kib(2 * LLC)};
    FPSmall = {kib(L2 / 2), kib(LLC / 2)};
    Strides = {64, 256, 4096, 32768};
    Jumps = {1024, 16384};
    break;
  case GridLevel::Full:
    for (double K = 4; K <= 8 * LLC; K *= 2)
      FP.push_back(K);
    FPSmall = {kib(L1 / 2), kib(L2 / 2), kib(LLC / 2), kib(2 * LLC)};
    for (double S = 8; S <= 65536; S *= 2)
      Strides.push_back(S);
    Jumps = {64, 256, 1024, 4096, 16384, 65536};
    break;
  }
  FP = uniq(FP);
  FPSmall = uniq(FPSmall);
  bool Reduced = Level != GridLevel::Full; // variants get fewer strides
  std::vector<UBenchConfig> Out;
  auto Add = [&](const UBenchDef &D, std::vector<double> K, std::vector<double> S) {
    for (std::size_t Q = 0; Q < K.size(); ++Q)
      if (!valid(D, Q, K[Q], S[Q], MaxThreads))
        return;
    UBenchConfig C;
    C.def = &D;
    C.footprintKiB = std::move(K);
    C.strideBytes = std::move(S);
    Out.push_back(std::move(C));
  };
  for (const UBenchDef &D : ubenchCatalog()) {
    if (!Only.empty() && std::find(Only.begin(), Only.end(), &D) == Only.end())
      continue;
    double E = D.elemBytes();
    std::vector<double> S = Strides;
    S.push_back(E);
    if (Level == GridLevel::Full && E == 4)
      S.push_back(4);
    S = uniq(S);
    bool Variant = D.name != "mbw1c" && D.name != "mbw1p" && D.name != "mbw2hc" &&
                   D.name != "mbw2hp" && D.name != "mbw2r";
    std::vector<double> SV = S;
    // Variants cover their kernel and type; the stride sweep is the main uBs'
    // job except in the full grid.
    if (Reduced && Variant)
      SV = Level == GridLevel::Quick ? std::vector<double>{E} : uniq({E, 4096});
    // A written shared stream needs a column per thread: a plane's stride.
    if (D.splitsColumns(0))
      SV = Reduced ? std::vector<double>{4096} : uniq({4096, 32768, 65536});
    if (D.compute()) {
      Add(D, {4}, {E});
      continue;
    }
    if (isFaultUBench(D.name) || isGiveBackUBench(D.name)) {
      // One footprint: 2 MiB of pages per thread at the most threads, so
      // that a sweep takes milliseconds (a fault costs 1-3 us on the VM).
      Add(D, {2048.0 * MaxThreads}, {PageBytes});
      continue;
    }
    if (isHandOverUBench(D.name)) {
      // Where the handed-over lines wait: in the other core's L2, the L3,
      // or memory; 4x apart from half the L2 to twice the LLC (two blocks
      // of 64 KiB a thread at the least).
      for (double K = std::max(kib(L2 / 2), 128.0 * MaxThreads); K <= 2 * LLC * 1.001; K *= 4)
        Add(D, {K}, {E});
      continue;
    }
    if (isSyncUBench(D.name)) {
      // Work between barriers from under a microsecond to milliseconds, 4x
      // apart: a barrier's cost on a shared core grows with it (a spinning
      // thread holds the core for the rest of its time slice). Each with
      // its mbw1p twin, which the estimator subtracts.
      // An invocation's fixed cost does not grow with the work: the
      // estimator prices it with the short sweeps, up to the L2.
      const UBenchDef *Ref = findUBench("mbw1p");
      const double Top = D.name == InvocationUBench ? L2 * 1.001 : 2 * LLC * 1.001;
      for (double K = kib(L1 / 2); K <= Top; K *= 4) {
        Add(D, {K}, {E});
        bool Have = std::any_of(Out.begin(), Out.end(), [&](const UBenchConfig &C) {
          return C.def == Ref && C.footprintKiB[0] == K && C.strideBytes[0] == E;
        });
        if (!Have)
          Add(*Ref, {K}, {E});
      }
      continue;
    }
    switch (D.streams()) {
    case 1:
      for (double K : FP) {
        if (D.pattern == "r") {
          Add(D, {K}, {E});
          for (double J : Jumps)
            if (isSearch(D, K, J, MaxThreads))
              Add(D, {K}, {J});
          continue;
        }
        for (double St : (Variant ? SV : S))
          Add(D, {K}, {St});
      }
      break;
    case 2:
      for (double K1 : FP) {
        std::vector<double> K2s = FPSmall;
        if (D.kernel == "copy")
          K2s = {K1}; // copies move equal-sized arrays
        for (double K2 : K2s) {
          if (K2 > K1)
            continue;
          for (double S1 : (Variant ? SV : S)) {
            if (D.kernel == "copy") {
              Add(D, {K1, K2}, {S1, S1});
            } else if (D.pattern[1] == 'r') {
              Add(D, {K1, K2}, {S1, E});
            } else {
              Add(D, {K1, K2}, {S1, E});
              if (Level == GridLevel::Full && S1 != E)
                Add(D, {K1, K2}, {S1, S1});
            }
          }
        }
      }
      break;
    case 3:
      if (D.kernel == "gather") {
        // A matrix of K, its indices (as many, of their own size), and a
        // vector gathered from the small footprints: CG A's is 109 KiB.
        for (double K : FP)
          for (double X : FPSmall)
            if (X < K)
              Add(D, {K, K * D.elemBytes(1) / D.elemBytes(0), X},
                  {double(D.elemBytes(0)), double(D.elemBytes(1)), double(D.elemBytes(2))});
        break;
      }
      for (double K : FP)
        for (double St : SV)
          Add(D, {K, K, K}, {St, St, St});
      break;
    }
  }
  return Out;
}

std::vector<UBenchConfig> parseParamsFile(const std::string &Text, const std::string &File) {
  std::vector<UBenchConfig> Out;
  std::size_t Start = 0, LineNo = 0;
  while (Start <= Text.size()) {
    std::size_t End = Text.find('\n', Start);
    if (End == std::string::npos)
      End = Text.size();
    std::string L = Text.substr(Start, End - Start);
    Start = End + 1;
    ++LineNo;
    if (auto H = L.find('#'); H != std::string::npos)
      L.resize(H);
    std::size_t B = L.find_first_not_of(" \t\r");
    if (B == std::string::npos) {
      if (End == Text.size())
        break;
      continue;
    }
    std::string Place = "line " + std::to_string(LineNo);
    std::size_t Sp = L.find_first_of(" \t", B);
    if (Sp == std::string::npos)
      throw InputError(File, Place, "expected 'UBENCH K:S[;K:S...]'");
    std::string Name = L.substr(B, Sp - B);
    // "+e<E>", "+r<R>", "+c<B>", "+k<K>", "+w<N>[/<M>]": whole numbers in a range,
    // each at most once.
    auto Whole = [&](const std::string &N, long Max, const std::string &What) {
      char *E = nullptr;
      long V = std::strtol(N.c_str(), &E, 10);
      if (N.empty() || *E || V < 1 || V > Max)
        throw InputError(File, Place,
                         "'" + Name + "': " + What + " must be a whole number from 1 to " +
                             std::to_string(Max));
      return V;
    };
    auto SuffixText = [&](const char *Tag) -> std::optional<std::string> {
      std::size_t Plus = Name.find(Tag);
      if (Plus == std::string::npos)
        return std::nullopt;
      std::size_t End = Name.find('+', Plus + 1);
      return Name.substr(Plus + 2, End == std::string::npos ? End : End - Plus - 2);
    };
    auto Suffix = [&](const char *Tag, long Max, const char *What) -> long {
      std::optional<std::string> N = SuffixText(Tag);
      return N ? Whole(*N, Max, std::string("the ") + What + " after " + Tag) : 0;
    };
    long Work = 0, WorkEvery = 1;
    if (std::optional<std::string> W = SuffixText("+w")) {
      std::size_t Slash = W->find('/');
      if (Slash != std::string::npos)
        WorkEvery = Whole(W->substr(Slash + 1), MaxWorkEvery, "the iterations after /");
      Work = Whole(W->substr(0, Slash), MaxWork, "the padding after +w");
    }
    long Every = Suffix("+e", MaxEvery, "iterations per kernel iteration");
    long Repeats = Suffix("+r", MaxRepeats, "walks of a window");
    long Span = Suffix("+c", MaxSpan, "accesses per column");
    long Run = Suffix("+j", MaxSpan, "accesses per jumping run");
    long Copies = Suffix("+k", MaxCopies, "copies");
    std::size_t EPos = Name.find("+e"), RPos = Name.find("+r"), CPos = Name.find("+c"),
                JPos = Name.find("+j"), KPos = Name.find("+k"), WPos = Name.find("+w");
    if (Span && Run)
      throw InputError(File, Place,
                       "'" + Name + "': a column span (+c) and jumping runs (+j) do not combine");
    const bool Jumps = Run > 0;
    if (Jumps)
      Span = Run, CPos = JPos;
    auto Before = [](std::size_t A, std::size_t B) {
      return A == std::string::npos || B == std::string::npos || A < B;
    };
    const std::size_t Order[] = {EPos, RPos, CPos, KPos, WPos};
    for (std::size_t I = 0; I < 5; ++I)
      for (std::size_t J = I + 1; J < 5; ++J)
        if (!Before(Order[I], Order[J]))
          throw InputError(File, Place,
                           "'" + Name + "': the suffixes come in the order +e, +r, +c (or +j), +k, +w");
    const std::string SpanTag = Jumps ? "a jumping run (+j)" : "a column span (+c)";
    if (Repeats && Span)
      throw InputError(File, Place,
                       "'" + Name + "': " + SpanTag + " and reuse windows (+r) do not combine");
    if (Span && Span < 4)
      throw InputError(File, Place, "'" + Name + "': " + SpanTag + " holds at least 4 accesses");
    if (std::size_t Cut = std::min({EPos, RPos, CPos, KPos, WPos}); Cut != std::string::npos)
      Name.resize(Cut);
    const UBenchDef *D = findUBench(Name);
    if (!D)
      throw InputError(File, Place, "unknown uB '" + Name + "' (see phaseprobe-ubench list)");
    if (Work && (D->compute() || isPricingUBench(D->name)))
      throw InputError(File, Place, "'" + Name + "' takes no padding (+w): only memory uBs do");
    if (Every && (D->compute() || isPricingUBench(D->name)))
      throw InputError(File, Place,
                       "'" + Name + "' takes no iterations per kernel iteration (+e): only memory "
                       "uBs do");
    if (Repeats && (D->compute() || isPricingUBench(D->name)))
      throw InputError(File, Place,
                       "'" + Name + "' takes no reuse windows (+r): only memory uBs do");
    if (Span && (D->compute() || isPricingUBench(D->name)))
      throw InputError(File, Place,
                       "'" + Name + "' takes no " + (Jumps ? "jumping runs (+j)" : "column span (+c)") +
                           ": only memory uBs do");
    if (Jumps && D->kernel == "gather")
      throw InputError(File, Place,
                       "'" + Name + "' takes no jumping runs (+j): a gather's rows walk in order");
    if (Copies > 1 && (D->compute() || isPricingUBench(D->name)))
      throw InputError(File, Place,
                       "'" + Name + "' takes no reuse copies (+k): only memory uBs do");
    std::string Rest = L.substr(Sp);
    Rest.erase(0, Rest.find_first_not_of(" \t"));
    Rest.erase(Rest.find_last_not_of(" \t\r") + 1);
    UBenchConfig C;
    C.def = D;
    C.work = Work;
    C.workEvery = WorkEvery;
    C.every = Every ? Every : 1;
    C.repeats = Repeats ? Repeats : 1;
    C.span = Span;
    C.jumps = Jumps;
    C.copies = Copies ? Copies : 1;
    std::size_t P = 0;
    for (unsigned Q = 0;; ++Q) {
      std::size_t Semi = Rest.find(';', P);
      std::string Part = Rest.substr(P, Semi == std::string::npos ? Semi : Semi - P);
      std::string Where = Place + ", stream " + std::to_string(Q + 1);
      std::size_t Colon = Part.find(':');
      if (Colon == std::string::npos)
        throw InputError(File, Where, "'" + Part + "' is not footprint_kib:stride_bytes");
      auto Num = [&](const std::string &S, const char *F) {
        char *E = nullptr;
        double V = std::strtod(S.c_str(), &E);
        if (S.empty() || *E || !std::isfinite(V) || V <= 0)
          throw InputError(File, Where, std::string(F) + " '" + S + "' is not a positive number");
        return V;
      };
      std::size_t Colon2 = Part.find(':', Colon + 1);
      C.footprintKiB.push_back(Num(Part.substr(0, Colon), "footprint_kib"));
      C.strideBytes.push_back(Num(
          Part.substr(Colon + 1, Colon2 == std::string::npos ? Colon2 : Colon2 - Colon - 1),
          "stride_bytes"));
      double Window = 0;
      if (Colon2 != std::string::npos) {
        if (!Repeats)
          throw InputError(File, Where,
                           "'" + Part + "': a window (third field) needs +r<R> on the uB name");
        Window = Num(Part.substr(Colon2 + 1), "window");
        bool Strided = Q < D->pattern.size() && D->pattern[Q] == 's';
        if (Window != std::floor(Window) || !Strided)
          throw InputError(File, Where,
                           "window '" + Part.substr(Colon2 + 1) +
                               "': a whole number of accesses, on a strided stream");
      }
      C.windowAccesses.push_back(Window);
      if (Semi == std::string::npos)
        break;
      P = Semi + 1;
    }
    if (C.footprintKiB.size() != D->streams())
      throw InputError(File, Place,
                       Name + " has " + std::to_string(D->streams()) + " streams, not " +
                           std::to_string(C.footprintKiB.size()));
    if (Repeats && !C.hasWindows())
      throw InputError(File, Place,
                       "'" + L.substr(B, Sp - B) + "': +r without a window (K:S:W) on any stream");
    if (!C.hasWindows())
      C.windowAccesses.clear();
    for (std::size_t Q = 0; Q < C.footprintKiB.size(); ++Q)
      if (!valid(*D, Q, C.footprintKiB[Q], C.strideBytes[Q], 1))
        throw InputError(File, Place + ", stream " + std::to_string(Q + 1),
                         "stride must be a multiple of " + std::to_string(D->elemBytes(Q)) +
                             " B and the footprint at least 4 strides");
    Out.push_back(std::move(C));
    if (End == Text.size())
      break;
  }
  if (Out.empty())
    throw InputError(File, "", "no configuration in the file");
  return Out;
}

void computeStats(const std::vector<double> &Times, double Iterations, Stats &T, Stats &U) {
  T = Stats();
  U = Stats();
  std::size_t N = Times.size();
  if (N == 0)
    return;
  std::vector<double> S = Times;
  std::sort(S.begin(), S.end());
  double Sum = 0;
  for (double V : S)
    Sum += V;
  T.count = N;
  T.mean = Sum / double(N);
  T.median = N % 2 ? S[N / 2] : (S[N / 2 - 1] + S[N / 2]) / 2;
  T.min = S.front();
  T.max = S.back();
  double Var = 0;
  for (double V : S)
    Var += (V - T.mean) * (V - T.mean);
  T.stddev = N > 1 ? std::sqrt(Var / double(N - 1)) : 0;
  double F = Iterations > 0 ? 1e6 / Iterations : 0; // seconds → µs per iteration
  U.count = N;
  U.mean = T.mean * F;
  U.median = T.median * F;
  U.min = T.min * F;
  U.max = T.max * F;
  U.stddev = T.stddev * F;
}

} // namespace phaseprobe
