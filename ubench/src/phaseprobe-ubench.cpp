//===- phaseprobe-ubench.cpp - Characterize a node into the NPPDB ------------===//
//
// `phaseprobe-ubench list` shows the uBs and grids; `phaseprobe-ubench run`
// describes this machine (hwloc), measures the chosen grid at every thread
// count and stores one profile per configuration in the NPPDB;
// `phaseprobe-ubench clone` writes the configurations that reproduce a
// program's phases (what `run --from-phases` measures), and with
// --calibrate, on the base node, each phase's clone padded to the phase's
// time per iteration (calibrate.cpp). Each profile
// is committed on its own, so a concurrent run on the same database waits at
// most one short transaction and an interrupted run keeps what it measured.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/atomic_file.h"
#include "phaseprobe/cli.h"
#include "phaseprobe/error.h"
#include "phaseprobe/node_probe.h"
#include "phaseprobe/nppdb.h"
#include "phaseprobe/stream_notation.h"
#include "phaseprobe/ubench.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <unistd.h>

#ifndef PHASEPROBE_UBENCH_COMPILER
#define PHASEPROBE_UBENCH_COMPILER "unknown"
#endif

using namespace phaseprobe;

namespace {

std::string kernelProgram() {
  if (const char *E = std::getenv("PHASEPROBE_UBENCH_KERNELS"); E && *E)
    return E;
  char Buf[PATH_MAX];
  ssize_t N = ::readlink("/proc/self/exe", Buf, sizeof Buf - 1);
  if (N <= 0)
    throw WorkError("cannot find my own executable (/proc/self/exe)");
  std::string Self(Buf, std::size_t(N));
  return Self.substr(0, Self.rfind('/') + 1) + "phaseprobe-ubench-kernels";
}

/// A started kernel program whose threads may share CPUs they have enough
/// of (KernelRunner::floating) measures the scheduler's whim: one line
/// saying so, and what to give instead.
/// OMP_PLACES=cores is handed over as the OS's cores (corePlaces), not as
/// libomp would read them.
std::unique_ptr<KernelRunner> startKernels(const std::string &Program, unsigned Threads,
                                           const std::string &Bind, const std::string &Given,
                                           const std::string &Wait) {
  static const std::string Cores = corePlaces();
  const std::string &Places = Given == "cores" && !Cores.empty() ? Cores : Given;
  auto R = std::make_unique<KernelRunner>(Program, Threads, Bind, Places, Wait);
  if (R->floating())
    std::fprintf(stderr,
                 "phaseprobe-ubench: warning: %u threads with OMP_PLACES=%s OMP_PROC_BIND=%s may run on "
                 "one CPU (their places overlap; libomp may read two cores as one core's hardware "
                 "threads): whether they share one is the scheduler's choice, and short uB repetitions "
                 "often find them on one; give one place per core, e.g. --places '{0},{1}'\n",
                 Threads, Places.empty() ? "(environment)" : Places.c_str(),
                 Bind.empty() ? "(environment)" : Bind.c_str());
  return R;
}

/// One thread count, as \p Option gave it.
unsigned threadCount(const std::string &Part, const char *Option) {
  char *E = nullptr;
  long V = std::strtol(Part.c_str(), &E, 10);
  if (Part.empty() || *E || V < 1 || V > 1024)
    throw InputError("", Option, "'" + Part + "' is not a thread count (1..1024)");
  return unsigned(V);
}

std::vector<unsigned> parseThreads(const std::string &S) {
  std::vector<unsigned> T;
  for (const std::string &Part : split(S, ','))
    T.push_back(threadCount(Part, "--threads"));
  std::sort(T.begin(), T.end());
  T.erase(std::unique(T.begin(), T.end()), T.end());
  return T;
}

/// 1, 2, 4, ... up to the core count, and the core count itself.
std::vector<unsigned> defaultThreads(unsigned Cores) {
  std::vector<unsigned> T;
  for (unsigned N = 1; N < Cores; N *= 2)
    T.push_back(N);
  T.push_back(std::max(1u, Cores));
  return T;
}

std::vector<const UBenchDef *> parseOnly(const std::vector<std::string> &Names) {
  std::vector<const UBenchDef *> V;
  for (const std::string &Arg : Names) {
    std::size_t P = 0;
    for (;;) {
      std::size_t C = Arg.find(',', P);
      std::string N = Arg.substr(P, C == std::string::npos ? C : C - P);
      const UBenchDef *D = findUBench(N);
      if (!D)
        throw InputError("", "--ubench", "unknown uB '" + N + "' (see phaseprobe-ubench list)");
      V.push_back(D);
      if (C == std::string::npos)
        break;
      P = C + 1;
    }
  }
  return V;
}

std::string clock(double S) {
  long T = long(S + 0.5);
  char B[32];
  std::snprintf(B, sizeof B, "%ld:%02ld", T / 60, T % 60);
  return B;
}

/// Progress: a bar with ETA on a terminal, one plain line per step otherwise.
class Progress {
public:
  Progress(std::size_t Total) : Total(Total), Tty(::isatty(2)), Start(now()) {}
  void step(const std::string &What, const std::string &Result) {
    ++Done;
    double El = now() - Start;
    double Eta = El / double(Done) * double(Total - Done);
    if (Tty) {
      int W = 30, Fill = int(double(W) * double(Done) / double(Total));
      // Pad the name so a shorter one overwrites the previous line fully.
      std::string Name = What.substr(0, 40);
      Name.resize(40, ' ');
      std::fprintf(stderr, "\r[%s%s] %zu/%zu elapsed %s ETA %s  %s", std::string(Fill, '#').c_str(),
                   std::string(W - Fill, '.').c_str(), Done, Total, clock(El).c_str(),
                   clock(Eta).c_str(), Name.c_str());
      if (Done == Total)
        std::fprintf(stderr, "\n");
    } else {
      std::fprintf(stderr, "[%zu/%zu] %s: %s (elapsed %s, ETA %s)\n", Done, Total, What.c_str(),
                   Result.c_str(), clock(El).c_str(), clock(Eta).c_str());
    }
    std::fflush(stderr);
  }
  void note(const std::string &S) { std::fprintf(stderr, "%s%s\n", Tty ? "\n" : "", S.c_str()); }
  void grow(std::size_t More) { Total += More; }
  double elapsed() const { return now() - Start; }

private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::size_t Total, Done = 0;
  bool Tty;
  double Start;
};

int cmdList(const std::string &Grid, const std::vector<std::string> &Only) {
  std::vector<const UBenchDef *> Sel = parseOnly(Only);
  if (Grid.empty()) {
    std::printf("%-8s %-7s %-7s %-7s %-8s %s\n", "ubench", "kernel", "type", "access", "pattern",
                "what it does");
    for (const UBenchDef &D : ubenchCatalog()) {
      if (!Sel.empty() && std::find(Sel.begin(), Sel.end(), &D) == Sel.end())
        continue;
      std::printf("%-8s %-7s %-7s %-7s %-8s %s\n", D.name.c_str(), D.kernel.c_str(), D.type.c_str(),
                  D.access.c_str(), D.pattern.c_str(), D.summary.c_str());
    }
    std::printf("\nparameters per stream: footprint KiB, stride bytes; access c = shared "
                "(every thread walks the same region), p = private (each thread its own "
                "slice); pattern s = strided, r = random\n");
    return ExitOk;
  }
  GridLevel L = Grid == "quick"  ? GridLevel::Quick
                : Grid == "full" ? GridLevel::Full
                                 : GridLevel::Default;
  if (Grid != "quick" && Grid != "full" && Grid != "default")
    throw InputError("", "--grid", "'" + Grid + "' is not quick, default or full");
  NodeInfo N = probeNode(hostName());
  auto G = makeGrid(L, N.l1dKiB, N.l2KiB, N.l3KiB, std::max(1u, N.cores), Sel);
  std::printf("# %s grid on %s: L1d %g KiB, L2 %g KiB, L3 %g KiB, %u cores: %zu "
              "configurations per thread count\n",
              Grid.c_str(), N.hostname.c_str(), N.l1dKiB, N.l2KiB, N.l3KiB, N.cores, G.size());
  for (const UBenchConfig &C : G)
    std::printf("%s %s\n", C.name().c_str(), C.requested().c_str());
  return ExitOk;
}

/// The phase clones of \p Files; notes go to stderr, one line each.
CloneSet cloneSetOf(const std::vector<std::string> &Files, double L1dKiB) {
  std::vector<ClonePhases> In;
  for (const std::string &F : Files)
    In.push_back(parseClonePhases(readFile(F), F));
  CloneSet S = clonePhases(In, L1dKiB);
  for (const std::string &N : S.notes)
    std::fprintf(stderr, "phaseprobe-ubench: %s\n", N.c_str());
  return S;
}

std::vector<UBenchConfig> clonesOf(const std::vector<std::string> &Files, double L1dKiB) {
  return cloneSetOf(Files, L1dKiB).configs;
}

/// An OMP_WAIT_POLICY value (OpenMP: active or passive, any case), or ''
/// for the environment's; anything else is an input error naming \p Where.
std::string waitPolicy(const std::string &Value, const std::string &Where) {
  std::string L;
  for (char C : Value)
    L += char(std::tolower(static_cast<unsigned char>(C)));
  if (!L.empty() && L != "active" && L != "passive")
    throw InputError("", Where, "wait policy '" + Value + "' is not active or passive");
  return L;
}

struct CloneOptions {
  std::vector<std::string> Files;
  std::string Out;
  double L1dKiB = 0;
  bool Calibrate = false;
  std::string Bind = "close", Places = "cores", Wait;
};

/// The padded twins of the phases' own clones (calibrateWork), measured
/// here at each phase's thread count; one line on stderr per phase. Several
/// runs of one program (same name and arguments) give each phase one
/// padding, calibrated to the median of its runs' times per iteration (the
/// run with that median supplies the clone), as the estimator merges them.
std::vector<UBenchConfig> paddedClones(const CloneSet &S, const CloneOptions &O) {
  std::map<std::tuple<std::string, std::string, unsigned>, std::vector<const CloneTarget *>> Runs;
  std::vector<std::tuple<std::string, std::string, unsigned>> Order;
  for (const CloneTarget &T : S.targets) {
    auto Key = std::make_tuple(T.program, T.phase, T.threads);
    if (Runs[Key].empty())
      Order.push_back(Key);
    Runs[Key].push_back(&T);
  }
  std::string Program = kernelProgram();
  std::map<unsigned, std::unique_ptr<KernelRunner>> Runners;
  std::map<std::string, UBenchConfig> Out; // by params line: equal paddings meet
  RepPolicy Pol = repPolicy(GridLevel::Default);
  for (const auto &Key : Order) {
    std::vector<const CloneTarget *> &V = Runs[Key];
    std::sort(V.begin(), V.end(),
              [](const CloneTarget *A, const CloneTarget *B) { return A->tpiUs < B->tpiUs; });
    const CloneTarget &T = *V[(V.size() - 1) / 2]; // the (lower) median
    auto &R = Runners[T.threads];
    if (!R)
      R = startKernels(Program, T.threads, O.Bind, O.Places, O.Wait);
    Calibration C = calibrateWork(*R, T.config, T.tpiUs, Pol);
    std::string Clone = paramsLine(T.config);
    if (!C.work) {
      std::fprintf(stderr, "phaseprobe-ubench: %s: %s not padded: %s (phase %s us, clone %s us)\n",
                   T.where.c_str(), Clone.c_str(), C.why.c_str(), formatNumber(T.tpiUs).c_str(),
                   formatNumber(C.unpaddedUs).c_str());
      continue;
    }
    UBenchConfig P = T.config;
    P.work = C.work;
    P.workEvery = C.workEvery;
    std::fprintf(stderr,
                 "phaseprobe-ubench: %s: padded %s: %s us per iteration for the phase's %s us "
                 "(unpadded %s us, %d measurements, %u threads)\n",
                 T.where.c_str(), paramsLine(P).c_str(), formatNumber(C.tpiUs).c_str(),
                 formatNumber(T.tpiUs).c_str(), formatNumber(C.unpaddedUs).c_str(), C.measurements,
                 T.threads);
    Out.emplace(paramsLine(P), P);
  }
  std::vector<UBenchConfig> V;
  for (auto &KV : Out)
    V.push_back(KV.second);
  return V;
}

int cmdClone(CloneOptions O) {
  const std::vector<std::string> &Files = O.Files;
  if (!O.Out.empty())
    checkWritable(O.Out); // before minutes of calibration, not after
  O.Wait = waitPolicy(O.Wait, "--wait-policy");
  CloneSet S = cloneSetOf(Files, O.L1dKiB);
  std::vector<UBenchConfig> Cs = S.configs;
  if (O.Calibrate)
    for (UBenchConfig &P : paddedClones(S, O))
      Cs.push_back(std::move(P));
  const std::string &Out = O.Out;
  std::string Text;
  for (const UBenchConfig &C : Cs)
    Text += paramsLine(C) + "\n";
  if (Out.empty()) {
    std::fputs(Text.c_str(), stdout);
  } else {
    std::string Head = "# phase clones of";
    for (const std::string &F : Files)
      Head += " " + F;
    writeFileAtomically(Out, Head + "\n" + Text);
    std::printf("%s: %zu uB configurations\n", Out.c_str(), Cs.size());
  }
  return ExitOk;
}

struct RunOptions {
  std::string Node, Db, Params, Threads, Bind = "close", Places = "cores", Wait;
  std::vector<std::string> Interleave; ///< NODE:THREADS[:PLACES[:BIND[:WAIT]]] each
  std::vector<std::string> FromPhases;
  double L1dKiB = 0;
  bool Quick = false, Full = false;
  std::vector<std::string> Only;
  unsigned Rounds = 1;
  unsigned MaxRounds = 0; ///< 0: Rounds (a fixed number)
  double RoundSePct = 1.5;
};

/// One node configuration a run measures: a label (its node in the NPPDB), a
/// thread count, a placement and a wait policy.
struct Target {
  std::string Label;
  unsigned Threads;
  std::string Bind, Places, Wait;
};

/// NODE:THREADS[:PLACES[:BIND[:WAIT]]] (defaults cores, close, the
/// environment's wait policy), as bench/accuracy's --config.
Target parseTarget(const std::string &Spec) {
  std::vector<std::string> Parts = split(Spec, ':');
  if (Parts.size() < 2 || Parts.size() > 5 || Parts[0].empty())
    throw InputError("", "--interleave",
                     "'" + Spec +
                         "' is not NODE:THREADS[:PLACES[:BIND[:WAIT]]] (e.g. n-2t:2:cores:spread)");
  Target T{Parts[0], threadCount(Parts[1], "--interleave"), "close", "cores", ""};
  if (Parts.size() > 2)
    T.Places = Parts[2];
  if (Parts.size() > 3)
    T.Bind = Parts[3];
  if (Parts.size() > 4)
    T.Wait = waitPolicy(Parts[4], "--interleave");
  return T;
}

/// Refuses to add to a node of \p Db profiled on another machine design: its
/// profiles would mix two CPUs under one label, and every estimate would
/// read both (run hh of 2026-11-28: Zen 4 profiles reused on a Zen 5).
void requireSameDesign(const Nppdb &Db, const std::vector<std::string> &Labels,
                       const NodeInfo &Here) {
  for (const std::string &L : Labels) {
    std::optional<NodeInfo> Old = Db.node(L);
    if (!Old || Db.profileCount(L) == 0)
      continue;
    std::string D = designDifference(*Old, Here);
    if (!D.empty())
      throw InputError(Db.path(), "node '" + L + "'",
                       D + ": its profiles would mix two designs; use another --node "
                           "label, or delete the node first (phaseprobe-db delete)");
  }
}

/// `node`: this machine as `run` would store it, and the places `cores`
/// stands for (corePlaces; bench/accuracy/run.py's default configurations
/// take theirs from here); with --db, a check that the
/// named nodes were profiled on its design (bench/accuracy/run.py asks
/// before it reuses a node of an NPPDB it was given).
int cmdNode(const std::string &DbPath, const std::vector<std::string> &Labels) {
  if (DbPath.empty() && !Labels.empty())
    throw InputError("", "--node", "needs --db, the NPPDB to check the nodes in");
  if (!DbPath.empty() && Labels.empty())
    throw InputError("", "--db", "needs --node, the nodes to check");
  NodeInfo N = probeNode(hostName());
  std::string Places = corePlaces();
  std::printf("host %s\ncpu %s\ncores %u, PUs %u, sockets %u, NUMA nodes %u\n"
              "caches: L1d %g KiB, L2 %g KiB, L3 %g KiB\nmemory %.0f MiB\ncore places %s\n",
              N.hostname.c_str(), N.cpu.c_str(), N.cores, N.pus, N.sockets, N.numaNodes, N.l1dKiB,
              N.l2KiB, N.l3KiB, N.memoryMiB, Places.empty() ? "cores" : Places.c_str());
  if (DbPath.empty())
    return ExitOk;
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::ReadOnly);
  for (const std::string &L : Labels)
    if (!Db->node(L))
      throw InputError(DbPath, "--node", "no node '" + L + "'");
  requireSameDesign(*Db, Labels, N);
  std::printf("same design: %zu node%s of %s\n", Labels.size(), Labels.size() == 1 ? "" : "s",
              DbPath.c_str());
  return ExitOk;
}

int cmdRun(const RunOptions &O, const std::string &CommandLine) {
  if (O.Quick && O.Full)
    throw InputError("", "--quick/--full", "choose one grid");
  if (!O.Interleave.empty() && (!O.Node.empty() || !O.Threads.empty()))
    throw InputError("", "--interleave", "names the nodes and thread counts: drop --node/--threads");
  const std::string Wait = waitPolicy(O.Wait, "--wait-policy");
  if (!O.Interleave.empty() && !Wait.empty())
    throw InputError("", "--interleave", "takes each node's wait policy as its fifth field: drop --wait-policy");
  std::vector<const UBenchDef *> Sel = parseOnly(O.Only);
  std::string Label = O.Node.empty() ? hostName() : O.Node;
  std::vector<Target> Targets;
  for (const std::string &S : O.Interleave) {
    Targets.push_back(parseTarget(S));
    for (std::size_t I = 0; I + 1 < Targets.size(); ++I)
      if (Targets[I].Label == Targets.back().Label)
        throw InputError("", "--interleave", "node '" + Targets.back().Label + "' given twice");
  }
  NodeInfo N = probeNode(Targets.empty() ? Label : Targets[0].Label);
  std::vector<unsigned> Threads;
  if (Targets.empty()) {
    Threads = O.Threads.empty() ? defaultThreads(N.cores) : parseThreads(O.Threads);
    for (unsigned T : Threads)
      Targets.push_back({Label, T, O.Bind, O.Places, Wait});
  } else {
    for (const Target &T : Targets)
      Threads.push_back(T.Threads);
    std::sort(Threads.begin(), Threads.end());
  }
  GridLevel L = O.Quick ? GridLevel::Quick : O.Full ? GridLevel::Full : GridLevel::Default;
  std::vector<UBenchConfig> Grid;
  std::string GridName = O.Quick ? "quick" : O.Full ? "full" : "default";
  if (!O.Params.empty() && !O.FromPhases.empty())
    throw InputError("", "--params/--from-phases", "choose one");
  if (!O.Params.empty() || !O.FromPhases.empty()) {
    if (!O.Params.empty()) {
      Grid = parseParamsFile(readFile(O.Params), O.Params);
      GridName = "params:" + O.Params;
    } else {
      Grid = clonesOf(O.FromPhases, O.L1dKiB);
      GridName = "phases:";
      for (std::size_t I = 0; I < O.FromPhases.size(); ++I)
        GridName += (I ? "," : "") + O.FromPhases[I];
    }
    if (!Sel.empty())
      Grid.erase(std::remove_if(Grid.begin(), Grid.end(),
                                [&](const UBenchConfig &C) {
                                  return std::find(Sel.begin(), Sel.end(), C.def) == Sel.end();
                                }),
                 Grid.end());
  } else {
    Grid = makeGrid(L, N.l1dKiB, N.l2KiB, N.l3KiB, Threads.back(), Sel);
  }
  if (Grid.empty())
    throw InputError("", O.Only.empty() && !O.FromPhases.empty() ? "--from-phases" : "--ubench",
                     O.Only.empty() && !O.FromPhases.empty()
                         ? "no stream of these phases can be cloned (see above)"
                         : "no configuration to run");
  RepPolicy Pol = repPolicy(L);
  std::string Program = kernelProgram();

  auto Db = Nppdb::open(O.Db, Nppdb::Mode::Create);
  // The nodes in the order given (one label, several thread counts: once).
  std::vector<std::string> Labels;
  for (const Target &T : Targets)
    if (std::find(Labels.begin(), Labels.end(), T.Label) == Labels.end())
      Labels.push_back(T.Label);
  requireSameDesign(*Db, Labels, N);
  Db->transaction([&] {
    for (const Target &T : Targets) {
      NodeInfo Each = N;
      Each.label = T.Label; // the same hardware under each configuration's label
      Db->putNode(Each);
    }
  });
  RunInfo R;
  R.compiler = PHASEPROBE_UBENCH_COMPILER;
  R.commandLine = CommandLine;
  R.grid = GridName;
  std::int64_t RunId = 0;
  Db->transaction([&] { RunId = Db->addRun(R); });

  if (N.pus && Threads.back() > N.pus)
    std::fprintf(stderr,
                 "phaseprobe-ubench: warning: %u threads on %u hardware threads "
                 "(oversubscribed: profiles will be slow and noisy)\n",
                 Threads.back(), N.pus);
  unsigned MaxRounds = O.MaxRounds ? O.MaxRounds : O.Rounds;
  if (MaxRounds < O.Rounds)
    throw InputError("", "--max-rounds",
                     std::to_string(MaxRounds) + " is below --rounds " + std::to_string(O.Rounds));
  if (MaxRounds > O.Rounds && O.Rounds < 2)
    throw InputError("", "--max-rounds",
                     "needs --rounds 2 or more (one round shows no disagreement to act on)");
  Progress Prog(Grid.size() * Targets.size() * O.Rounds);
  std::map<std::string, std::pair<std::size_t, std::size_t>> Counts; // label -> stored, replaced
  std::size_t Rejected = 0;
  double MaxCv = 0;
  std::string MaxCvWhat;
  std::vector<double> Cvs;
  // With --rounds N every configuration is measured N times, a whole pass
  // over the grid apart, and the round with the median tpi is stored: a
  // burst of the machine's noise (seconds long on the VM) then hits one
  // round, not the profile. Rounds[target][config] holds them.
  std::vector<std::vector<std::vector<Profile>>> Rounds(
      Targets.size(), std::vector<std::vector<Profile>>(Grid.size()));
  std::vector<std::vector<char>> Refused(Targets.size(), std::vector<char>(Grid.size(), 0));
  auto Measure = [&](std::size_t TI, KernelRunner &Runner, std::size_t CI) {
    const Target &T = Targets[TI];
    const UBenchConfig &C = Grid[CI];
    std::vector<Profile> &Done = Rounds[TI][CI];
    unsigned Round = unsigned(Done.size());
    Profile P;
    std::string What = C.name() + " " + C.requested() + " th=" + std::to_string(T.Threads);
    if (O.Interleave.size())
      What += " " + T.Label;
    if (MaxRounds > 1)
      What += " round " + std::to_string(Round + 1) + "/" +
              (Round < O.Rounds ? std::to_string(O.Rounds) : "<=" + std::to_string(MaxRounds));
    // A refusal is the same every round: said once, not asked again.
    std::string Err = Refused[TI][CI] ? "" : Runner.measure(C, Pol, P);
    if (Refused[TI][CI] || !Err.empty()) {
      if (!Refused[TI][CI]) {
        Refused[TI][CI] = 1;
        ++Rejected;
        Prog.note("phaseprobe-ubench: " + What + ": rejected by the kernel: " + Err);
      }
      Prog.step(What, "rejected");
      return;
    }
    Done.push_back(P);
    double Cv = P.tpiStats->mean > 0 ? P.tpiStats->stddev / P.tpiStats->mean * 100 : 0;
    char Res[160];
    std::snprintf(Res, sizeof Res, "tpi %.4g us, CV %.1f%% over %llu reps", P.tpiUs, Cv,
                  (unsigned long long)P.tpiStats->count);
    Prog.step(What, Res);
  };
  // A configuration whose rounds on a node disagree (the standard error of
  // their mean above --round-se of it) is measured again, up to
  // --max-rounds: on the VM, a padded random clone's tpi at two threads
  // spread 20% from one kernel process to the next within a minute, and
  // its median of 3 rounds put the 1t/2t ratio 7% from that of 10.
  auto Unsettled = [&](std::size_t TI, std::size_t CI) {
    const std::vector<Profile> &Done = Rounds[TI][CI];
    if (Done.size() >= MaxRounds || Done.size() < O.Rounds)
      return false;
    double Mean = 0, Var = 0;
    for (const Profile &Q : Done)
      Mean += Q.tpiUs;
    Mean /= double(Done.size());
    for (const Profile &Q : Done)
      Var += (Q.tpiUs - Mean) * (Q.tpiUs - Mean);
    double Se = std::sqrt(Var / double(Done.size() - 1) / double(Done.size()));
    return Mean > 0 && Se / Mean * 100 > O.RoundSePct;
  };
  std::size_t Extra = 0; // configurations (per node) measured beyond --rounds
  unsigned MostRounds = O.Rounds;
  auto Store = [&](std::size_t TI, std::size_t CI) {
    const Target &T = Targets[TI];
    const std::vector<Profile> &Done = Rounds[TI][CI];
    if (Done.empty() || Refused[TI][CI])
      return;
    if (Done.size() > O.Rounds)
      ++Extra, MostRounds = std::max(MostRounds, unsigned(Done.size()));
    std::vector<std::size_t> Order(Done.size());
    for (std::size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    std::sort(Order.begin(), Order.end(),
              [&](std::size_t A, std::size_t B) { return Done[A].tpiUs < Done[B].tpiUs; });
    Profile P = Done[Order[(Order.size() - 1) / 2]]; // the (lower) median round
    if (Done.size() > 1) {
      std::string List;
      for (const Profile &Q : Done)
        List += (List.empty() ? "" : ",") + formatNumber(Q.tpiUs);
      P.params["rounds"] = std::to_string(Done.size());
      P.params["round_tpi_us"] = List;
    }
    P.node = T.Label;
    bool Clash = false;
    Db->transaction([&] {
      Clash = Db->existing(P).has_value();
      Db->addProfile(P, RunId, true);
    });
    auto &[Stored, Replaced] = Counts[T.Label];
    ++(Clash ? Replaced : Stored);
    double Cv = P.tpiStats->mean > 0 ? P.tpiStats->stddev / P.tpiStats->mean * 100 : 0;
    Cvs.push_back(Cv);
    if (Cv > MaxCv) {
      MaxCv = Cv;
      MaxCvWhat = Grid[CI].name() + " " + Grid[CI].requested() + " th=" +
                  std::to_string(T.Threads) + (O.Interleave.size() ? " " + T.Label : "");
    }
  };
  std::vector<std::unique_ptr<KernelRunner>> Runners;
  for (const Target &T : Targets)
    Runners.push_back(startKernels(Program, T.Threads, T.Bind, T.Places, T.Wait));
  // The targets measured together: side by side, every one; else each alone.
  std::vector<std::vector<std::size_t>> Groups;
  if (O.Interleave.empty()) {
    for (std::size_t TI = 0; TI < Targets.size(); ++TI)
      Groups.push_back({TI});
  } else {
    // Every configuration on each node in turn, seconds apart: a drift of
    // the machine's speed moves all nodes alike, so the node-to-node ratios
    // the estimator uses stay (measured one node after the other, a slow
    // minute during one node's grid biased all of that node's ratios).
    // Extra rounds go to every node too, for the same reason.
    Groups.emplace_back();
    for (std::size_t TI = 0; TI < Targets.size(); ++TI)
      Groups.back().push_back(TI);
  }
  // A configuration is stored once its last round is measured (a long grid
  // loses only what is under way when stopped), or kept open for more.
  auto Finish = [&](const std::vector<std::size_t> &G, std::size_t CI,
                    std::vector<std::size_t> &Open) {
    bool More = false;
    for (std::size_t TI : G)
      More = More || Unsettled(TI, CI);
    if (More)
      Open.push_back(CI);
    else
      for (std::size_t TI : G)
        Store(TI, CI);
  };
  for (const std::vector<std::size_t> &G : Groups) {
    std::vector<std::size_t> Open; // configurations to measure again, in grid order
    for (unsigned Round = 0; Round < O.Rounds; ++Round)
      for (std::size_t CI = 0; CI < Grid.size(); ++CI) {
        for (std::size_t TI : G)
          Measure(TI, *Runners[TI], CI);
        if (Round + 1 == O.Rounds)
          Finish(G, CI, Open);
      }
    while (!Open.empty()) {
      Prog.grow(Open.size() * G.size());
      std::vector<std::size_t> Still;
      for (std::size_t CI : Open)
        for (std::size_t TI : G)
          Measure(TI, *Runners[TI], CI);
      for (std::size_t CI : Open)
        Finish(G, CI, Still);
      Open.swap(Still);
    }
  }
  std::sort(Cvs.begin(), Cvs.end());
  // One line per node, in the order given.
  for (const std::string &L : Labels) {
    std::string Th;
    for (const Target &T : Targets)
      if (T.Label == L)
        Th += (Th.empty() ? "" : ",") + std::to_string(T.Threads);
    auto [Stored, Replaced] = Counts[L];
    std::printf("%s: node %s: %zu profiles stored (%zu replaced older ones), threads %s, "
                "grid %s, %.1f s%s\n",
                O.Db.c_str(), L.c_str(), Stored + Replaced, Replaced, Th.c_str(), GridName.c_str(),
                Prog.elapsed(), O.Interleave.empty() ? "" : " (interleaved)");
  }
  if (!Cvs.empty())
    std::printf("dispersion of tpi: median CV %.1f%%, max %.1f%% (%s)\n", Cvs[Cvs.size() / 2],
                MaxCv, MaxCvWhat.c_str());
  if (MaxRounds > O.Rounds)
    std::printf("rounds: %zu profiles measured beyond %u rounds (their rounds' mean uncertain by "
                "more than %g%%), up to %u\n",
                Extra, O.Rounds, O.RoundSePct, MostRounds);
  if (Rejected)
    throw WorkError(std::to_string(Rejected) + " configurations were rejected by the kernel "
                                               "program (see above)");
  return ExitOk;
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"phaseprobe-ubench: run the microbenchmark suite and store the node's "
               "performance profiles in an NPPDB"};
  App.require_subcommand(1);
  App.set_version_flag("--version", version());
  std::string Grid;
  std::vector<std::string> Only;
  CLI::App *List = App.add_subcommand("list", "the uBs and their parameters; with --grid the "
                                              "configurations a grid runs on this machine");
  List->add_option("--grid", Grid, "quick, default or full");
  List->add_option("--ubench", Only, "only these uBs (comma-separated)");
  RunOptions O;
  CLI::App *Run = App.add_subcommand("run", "characterize this node: run the grid at each "
                                            "thread count and store the profiles");
  Run->add_option("--node", O.Node, "node label (default: the host name)");
  Run->add_option("--db", O.Db, "the NPPDB file (created when missing)")->required();
  Run->add_flag("--quick", O.Quick,
                "small grid (its largest footprints twice the L3: a minute per thread count "
                "on 2 cores with a 35 MiB L3, two with 480 MiB)");
  Run->add_flag("--full", O.Full, "the full grid (hours)");
  Run->add_option("--threads", O.Threads,
                  "thread counts, comma-separated (default: 1, 2, 4, ... and the core count)");
  Run->add_option("--params", O.Params,
                  "file of configurations instead of a grid: 'UBENCH K:S[;K:S...]' a line");
  Run->add_option("--from-phases", O.FromPhases,
                  "phase files: run their phase clones (what 'clone' prints) instead of a grid");
  Run->add_option("--l1d-kib", O.L1dKiB,
                  "with --from-phases: streams up to this footprint are not significant "
                  "(default: their flag, else the phase file's node L1d)");
  Run->add_option("--ubench", O.Only, "only these uBs (comma-separated)");
  Run->add_option("--rounds", O.Rounds,
                  "measure every configuration this many times, a pass over the grid apart, and "
                  "store the round with the median tpi (default 1)")
      ->check(CLI::Range(1u, 100u));
  Run->add_option("--max-rounds", O.MaxRounds,
                  "measure a configuration in more rounds than --rounds, up to this many, while "
                  "the standard error of its rounds' mean tpi on a node exceeds --round-se "
                  "(default: --rounds, no more)")
      ->check(CLI::Range(1u, 100u));
  Run->add_option("--round-se", O.RoundSePct,
                  "with --max-rounds: the standard error, in percent of the rounds' mean tpi, "
                  "below which a configuration's rounds are enough (default 1.5)")
      ->check(CLI::Range(0.0, 100.0));
  Run->add_option("--bind", O.Bind,
                  "OMP_PROC_BIND for the uBs (default close; '' leaves "
                  "the environment's)");
  Run->add_option("--interleave", O.Interleave,
                  "NODE:THREADS[:PLACES[:BIND[:WAIT]]], several: configurations of this machine "
                  "characterized side by side, every uB measured on each in turn (their "
                  "node-to-node ratios then survive a drift of the machine's speed)");
  Run->add_option("--places", O.Places,
                  "OMP_PLACES for the uBs (default cores; '' leaves "
                  "the environment's)");
  Run->add_option("--wait-policy", O.Wait,
                  "OMP_WAIT_POLICY for the uBs, active or passive (default: the environment's); "
                  "part of the node configuration, as the program's runs have it");
  std::string NodeDb;
  std::vector<std::string> NodeLabels;
  CLI::App *NodeCmd = App.add_subcommand(
      "node", "this machine's description, as `run` stores it; with --db and --node, exit 2 "
              "unless each of those nodes was characterized on this machine's design");
  NodeCmd->add_option("--db", NodeDb, "an NPPDB (read only)");
  NodeCmd->add_option("--node", NodeLabels, "node labels to check (with --db; several allowed)");
  CloneOptions CO;
  CLI::App *Clone = App.add_subcommand(
      "clone", "the uB configurations (--params lines) that reproduce the significant streams "
               "of the leaf phases of phase files");
  Clone->add_option("phases", CO.Files, "phase files (phaseprobe.phases/1)")->required();
  Clone->add_option("--out", CO.Out, "write the lines to this file (atomically)");
  Clone->add_option("--l1d-kib", CO.L1dKiB,
                    "streams up to this footprint are not significant (default: their flag, "
                    "else the phase file's node L1d, else every stream counts)");
  Clone->add_flag("--calibrate", CO.Calibrate,
                  "on the node the phases were measured on: also write, per phase, its clone "
                  "padded with arithmetic until it takes the phase's time per iteration "
                  "(measured here at the phase's thread count; 'UB+wN' lines)");
  Clone->add_option("--bind", CO.Bind,
                    "with --calibrate: OMP_PROC_BIND for the measurements (default close; '' "
                    "leaves the environment's); use the phases' run's");
  Clone->add_option("--places", CO.Places,
                    "with --calibrate: OMP_PLACES for the measurements (default cores; '' "
                    "leaves the environment's)");
  Clone->add_option("--wait-policy", CO.Wait,
                    "with --calibrate: OMP_WAIT_POLICY for the measurements, active or passive "
                    "(default: the environment's)");
  std::string Cmd;
  for (int I = 0; I < Argc; ++I)
    Cmd += (I ? " " : "") + std::string(Argv[I]);
  return runTool("phaseprobe-ubench", App, Argc, Argv, [&]() -> int {
    if (*List)
      return cmdList(Grid, Only);
    if (*Clone)
      return cmdClone(CO);
    if (*NodeCmd)
      return cmdNode(NodeDb, NodeLabels);
    return cmdRun(O, Cmd);
  });
}
