//===- phase_runs.cpp - Median of several base runs ------------------------===//
#include "phaseprobe/phase_runs.h"
#include "phaseprobe/error.h"
#include "phaseprobe/phase_file.h"

#include <algorithm>
#include <map>

namespace phaseprobe {

namespace {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

std::string joinArgv(const std::vector<std::string> &A) {
  std::string S;
  for (const std::string &X : A)
    S += (S.empty() ? "" : " ") + X;
  return S;
}

/// Why \p Run is not another run of \p First's program; empty when it is.
std::string notSameProgram(const PhaseFile &First, const PhaseFile &Run) {
  const ProgramInfo &A = First.program, &B = Run.program;
  if (A.name != B.name)
    return "program '" + B.name + "', not '" + A.name + "'";
  if (A.argv.size() > 1 && B.argv.size() > 1 &&
      std::vector<std::string>(A.argv.begin() + 1, A.argv.end()) !=
          std::vector<std::string>(B.argv.begin() + 1, B.argv.end()))
    return "arguments '" + joinArgv(B.argv) + "', not '" + joinArgv(A.argv) + "'";
  if (A.threads != B.threads)
    return std::to_string(B.threads) + " threads, not " + std::to_string(A.threads);
  if (First.node && Run.node && First.node->label != Run.node->label)
    return "node '" + Run.node->label + "', not '" + First.node->label + "'";
  return "";
}

void checkSameProgram(const PhaseFile &First, const PhaseFile &Run, const std::string &Path,
                      const std::string &FirstPath) {
  std::string Why = notSameProgram(First, Run);
  if (!Why.empty())
    throw InputError(Path, "program",
                     "not another run of " + FirstPath + " (" + Why +
                         "): only runs of one program on one node are merged");
}

} // namespace

namespace {

bool unsampled(const PhaseFile &F) { return F.program.sampling == false; }

/// Per set of tests that some run's items carry (\p TestsOf), the median
/// over the runs of the item's value (0 in a run without that set).
template <typename Item, typename Value>
std::vector<std::pair<std::vector<ThreadTest>, double>>
mediansPerTestSet(const std::vector<const std::vector<Item> *> &Runs,
                  std::vector<ThreadTest> Item::*TestsOf, Value ValueOf) {
  auto Key = [](const std::vector<ThreadTest> &Tests) {
    std::string K;
    for (const ThreadTest &T : Tests)
      K += T.text() + ";";
    return K;
  };
  std::map<std::string, std::pair<std::vector<ThreadTest>, std::vector<double>>> Sets;
  for (const std::vector<Item> *R : Runs)
    for (const Item &I : *R)
      Sets[Key(I.*TestsOf)].first = I.*TestsOf;
  std::vector<std::pair<std::vector<ThreadTest>, double>> Out;
  for (auto &[K, Set] : Sets) {
    for (const std::vector<Item> *R : Runs) {
      double V = 0;
      for (const Item &I : *R)
        if (Key(I.*TestsOf) == K)
          V = ValueOf(I);
      Set.second.push_back(V);
    }
    Out.push_back({Set.first, median(Set.second)});
  }
  return Out;
}

/// The merge proper: times and counts from \p Timed; streams, kind and
/// parent from \p Shaped, the sampled runs when some runs did not sample
/// (empty: from \p Timed too); a phase only in \p Shaped keeps its own times.
PhaseFile merge(const std::vector<const PhaseFile *> &Timed,
                const std::vector<const PhaseFile *> &Shaped) {
  PhaseFile Out = *Timed[0];
  std::vector<double> Totals;
  for (const PhaseFile *R : Timed)
    Totals.push_back(R->program.totalTimeS);
  Out.program.totalTimeS = median(Totals);
  // Guarded serial time per set of tests: the median over the runs.
  {
    std::vector<const std::vector<GuardedSerial> *> Runs;
    for (const PhaseFile *R : Timed)
      Runs.push_back(&R->program.guardedSerial);
    Out.program.guardedSerial.clear();
    for (auto &[Tests, S] : mediansPerTestSet(Runs, &GuardedSerial::runsIf,
                                              [](const GuardedSerial &G) { return G.timeS; }))
      if (S > 0)
        Out.program.guardedSerial.push_back({Tests, S});
  }
  // Shared CPUs in any run: a thread's own time is then not its work
  // alone; floating threads in any run: its times are the scheduler's too.
  // Unknown where no run says.
  auto InAnyRun = [&](std::optional<bool> ProgramInfo::*Field) {
    std::optional<bool> Any;
    for (const PhaseFile *R : Timed)
      if (const std::optional<bool> &V = R->program.*Field)
        Any = Any.value_or(false) || *V;
    return Any;
  };
  Out.program.threadsShareCpus = InAnyRun(&ProgramInfo::threadsShareCpus);
  Out.program.threadsFloat = InAnyRun(&ProgramInfo::threadsFloat);
  // The program's page faults: the median over the timed runs that counted
  // them (a sampled run faults into the runtime's own tables too).
  {
    std::vector<double> Faults;
    for (const PhaseFile *R : Timed)
      if (R->program.pageFaults)
        Faults.push_back(double(*R->program.pageFaults));
    Out.program.pageFaults.reset();
    if (!Faults.empty())
      Out.program.pageFaults = std::uint64_t(median(Faults) + 0.5);
  }
  bool Split = !Shaped.empty();
  if (Split)
    Out.program.sampling = true;

  // Phases in first-seen order over the runs.
  std::vector<std::string> Order;
  std::map<std::string, std::vector<const Phase *>> TimedById, ShapedById;
  auto Collect = [&Order](const std::vector<const PhaseFile *> &Runs, auto &ById) {
    for (const PhaseFile *R : Runs)
      for (const Phase &P : R->phases) {
        if (!ById.count(P.id) && std::find(Order.begin(), Order.end(), P.id) == Order.end())
          Order.push_back(P.id);
        ById[P.id].push_back(&P);
      }
  };
  Collect(Timed, TimedById);
  if (Split)
    Collect(Shaped, ShapedById);
  auto ByTime = [](std::vector<const Phase *> V) {
    std::stable_sort(V.begin(), V.end(),
                     [](const Phase *A, const Phase *B) { return A->timeS < B->timeS; });
    return V;
  };
  Out.phases.clear();
  for (const std::string &Id : Order) {
    std::vector<const Phase *> T = TimedById[Id], S = ByTime(ShapedById[Id]);
    if (T.empty())
      T = S;
    if (S.empty())
      S = ByTime(T);
    Phase P = *S[(S.size() - 1) / 2]; // the (lower) median run's streams and shape
    std::vector<double> Time, Iters, Inv, Bar, Spin, Faults;
    for (const Phase *X : T) {
      Time.push_back(X->timeS);
      Iters.push_back(X->iterations);
      Inv.push_back(double(X->invocations));
      if (X->barriers)
        Bar.push_back(double(*X->barriers));
      Spin.push_back(X->spinRounds ? double(*X->spinRounds) : 0.0);
      Faults.push_back(X->pageFaults ? double(*X->pageFaults) : 0.0);
    }
    P.timeS = median(Time);
    P.iterations = median(Iters);
    P.invocations = std::uint64_t(median(Inv) + 0.5);
    if (!Bar.empty())
      P.barriers = std::uint64_t(median(Bar) + 0.5);
    // A run that never had to wait (or fault) counts zero, not an unknown;
    // a median of zero is written as none.
    auto CountOrNone = [](const std::vector<double> &V) -> std::optional<std::uint64_t> {
      if (std::uint64_t N = std::uint64_t(median(V) + 0.5))
        return N;
      return std::nullopt;
    };
    P.spinRounds = CountOrNone(Spin);
    P.pageFaults = CountOrNone(Faults);
    // Per set of tests, the median over the runs, within the page faults.
    std::vector<const std::vector<GuardedFaults> *> Guarded;
    for (const Phase *X : T)
      Guarded.push_back(&X->guardedPageFaults);
    P.guardedPageFaults.clear();
    std::uint64_t Left = P.pageFaults.value_or(0);
    for (auto &[Tests, N] :
         mediansPerTestSet(Guarded, &GuardedFaults::allocatedIf,
                           [](const GuardedFaults &G) { return double(G.pageFaults); }))
      if (std::uint64_t F = std::min(std::uint64_t(N + 0.5), Left)) {
        P.guardedPageFaults.push_back({Tests, F});
        Left -= F;
      }
    P.tpiUs = P.iterations > 0 ? P.timeS * 1e6 / P.iterations : 0;
    // The per-thread times: each the median over the timed runs that wrote
    // them (medians of ordered triples stay ordered).
    std::vector<double> TMin, TMed, TMax;
    for (const Phase *X : T)
      if (X->threadTimeS) {
        TMin.push_back(X->threadTimeS->minS);
        TMed.push_back(X->threadTimeS->medianS);
        TMax.push_back(X->threadTimeS->maxS);
      }
    P.threadTimeS.reset();
    if (!TMax.empty())
      P.threadTimeS = Phase::ThreadTimes{median(TMin), median(TMed), median(TMax)};
    if (P.weight)
      P.weight = Out.program.totalTimeS > 0 ? P.timeS / Out.program.totalTimeS : 0;
    Out.phases.push_back(std::move(P));
  }
  return Out;
}

} // namespace

PhaseFile mergePhaseRuns(const std::vector<PhaseFile> &Runs,
                         const std::vector<std::string> &Paths) {
  if (Runs.size() <= 1)
    return Runs.empty() ? PhaseFile{} : Runs[0];
  for (size_t I = 1; I < Runs.size(); ++I)
    checkSameProgram(Runs[0], Runs[I], Paths[I], Paths[0]);
  std::vector<const PhaseFile *> All, Timed, Sampled;
  for (const PhaseFile &R : Runs) {
    All.push_back(&R);
    (unsampled(R) ? Timed : Sampled).push_back(&R);
  }
  if (Timed.empty() || Sampled.empty())
    return merge(All, {});
  return merge(Timed, Sampled);
}

bool sameProgram(const PhaseFile &First, const PhaseFile &Run) {
  return notSameProgram(First, Run).empty();
}

std::vector<PhaseFile> timedRuns(const std::vector<PhaseFile> &Runs,
                                 const std::vector<std::string> &Paths) {
  std::vector<const PhaseFile *> Sampled;
  for (const PhaseFile &R : Runs)
    if (!unsampled(R))
      Sampled.push_back(&R);
  if (Sampled.empty() || Sampled.size() == Runs.size())
    return Runs;
  for (size_t I = 1; I < Runs.size(); ++I)
    checkSameProgram(Runs[0], Runs[I], Paths[I], Paths[0]);
  std::vector<PhaseFile> Timed;
  for (const PhaseFile &R : Runs)
    if (unsampled(R))
      Timed.push_back(merge({&R}, Sampled));
  return Timed;
}

RunSpread runSpread(const std::vector<PhaseFile> &Runs) {
  RunSpread R;
  for (const PhaseFile &F : Runs)
    R.totalS.push_back(F.program.totalTimeS);
  if (R.totalS.empty())
    return R;
  auto [Lo, Hi] = std::minmax_element(R.totalS.begin(), R.totalS.end());
  R.minS = *Lo;
  R.maxS = *Hi;
  R.medianS = median(R.totalS);
  R.spreadPct = R.medianS > 0 ? (R.maxS - R.minS) / R.medianS * 100 : 0;
  // Leaves by id, in first-seen order, with the number of runs that have them.
  std::vector<std::pair<PhaseRunRange, size_t>> Leaves;
  std::map<std::string, size_t> At;
  for (const PhaseFile &F : Runs)
    for (size_t I : leafPhases(F)) {
      const Phase &P = F.phases[I];
      auto [It, New] = At.emplace(P.id, Leaves.size());
      if (New)
        Leaves.push_back({{P.id, P.timeS, P.timeS}, 0});
      auto &[L, N] = Leaves[It->second];
      L.minS = std::min(L.minS, P.timeS);
      L.maxS = std::max(L.maxS, P.timeS);
      ++N;
    }
  double Floor = (R.maxS - R.minS) / 10;
  for (const auto &[L, N] : Leaves)
    if (N > 1 && L.maxS > L.minS && L.maxS - L.minS >= Floor)
      R.phases.push_back(L);
  std::stable_sort(R.phases.begin(), R.phases.end(), [](const auto &A, const auto &B) {
    return A.maxS - A.minS > B.maxS - B.minS;
  });
  if (R.phases.size() > 3)
    R.phases.resize(3);
  return R;
}

} // namespace phaseprobe
