//===- runner.cpp - Drive the kernel program for one thread count -----------===//
//
// The kernel program is a separate process because OpenMP reads the thread
// count, the placement (OMP_PROC_BIND, OMP_PLACES) and the wait policy
// (OMP_WAIT_POLICY) once, when its runtime
// starts: one process per thread count and placement is the only way to set
// them exactly as a user's program would see them. Configurations go in one
// line at a time and answers come back one line each.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"
#include "phaseprobe/ubench.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <sstream>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

namespace phaseprobe {

KernelRunner::KernelRunner(const std::string &Program, unsigned Threads, const std::string &Bind,
                           const std::string &Places, const std::string &Wait)
    : Threads(Threads), Bind(Bind), Places(Places), Wait(Wait) {
  if (::access(Program.c_str(), X_OK) != 0)
    throw WorkError(Program + ": cannot run the uB kernel program: " + std::strerror(errno));
  std::signal(SIGPIPE, SIG_IGN);
  // Close-on-exec: a second runner's child must not inherit this one's pipe
  // ends, or this child would never see EOF on stdin and never exit
  // (dup2 below gives the child its own ends without the flag).
  int In[2], Out[2];
  if (::pipe2(In, O_CLOEXEC) != 0 || ::pipe2(Out, O_CLOEXEC) != 0)
    throw WorkError(std::string("cannot create pipes: ") + std::strerror(errno));
  Pid = ::fork();
  if (Pid < 0)
    throw WorkError(std::string("cannot fork: ") + std::strerror(errno));
  if (Pid == 0) {
    ::dup2(In[0], 0);
    ::dup2(Out[1], 1);
    ::close(In[0]), ::close(In[1]), ::close(Out[0]), ::close(Out[1]);
    ::setenv("OMP_NUM_THREADS", std::to_string(Threads).c_str(), 1);
    if (!Bind.empty())
      ::setenv("OMP_PROC_BIND", Bind.c_str(), 1);
    if (!Places.empty())
      ::setenv("OMP_PLACES", Places.c_str(), 1);
    if (!Wait.empty())
      ::setenv("OMP_WAIT_POLICY", Wait.c_str(), 1);
    ::setenv("OMP_DYNAMIC", "false", 1); // exactly the threads asked for
    ::execl(Program.c_str(), Program.c_str(), (char *)nullptr);
    std::fprintf(stderr, "%s: %s\n", Program.c_str(), std::strerror(errno));
    ::_exit(127);
  }
  ::close(In[0]);
  ::close(Out[1]);
  ToChild = In[1];
  FromChild = ::fdopen(Out[0], "r");
  char Line[256];
  if (!FromChild || !std::fgets(Line, sizeof Line, FromChild))
    throw WorkError(Program + ": the uB kernel program did not start");
  unsigned Got = 0;
  if (std::sscanf(Line, "ready threads=%u", &Got) != 1 || Got != Threads)
    throw WorkError(Program + ": started with " + std::to_string(Got) + " threads, not " +
                    std::to_string(Threads));
  Floating = std::strstr(Line, " floating=yes") != nullptr;
}

KernelRunner::~KernelRunner() {
  if (ToChild >= 0)
    ::close(ToChild);
  if (FromChild)
    std::fclose(FromChild);
  if (Pid > 0) {
    int St;
    while (::waitpid(Pid, &St, 0) < 0 && errno == EINTR) {
    }
  }
}

std::string KernelRunner::measure(const UBenchConfig &C, const RepPolicy &Pol, Profile &P) {
  const UBenchDef &D = *C.def;
  long Id = NextId++;
  char Buf[512];
  double K[3] = {0, 0, 0}, S[3] = {0, 0, 0};
  long W[3] = {0, 0, 0}, B[3] = {0, 0, 0};
  for (std::size_t Q = 0; Q < C.footprintKiB.size() && Q < 3; ++Q) {
    K[Q] = C.footprintKiB[Q], S[Q] = C.strideBytes[Q];
    if (Q < C.windowAccesses.size())
      W[Q] = std::lround(C.windowAccesses[Q]);
    if (C.spans(Q))
      B[Q] = C.span;
  }
  if (C.rows())
    B[0] = C.span;
  std::snprintf(Buf, sizeof Buf,
                "%ld %s %s %u %s %s %.17g %.17g %.17g %.17g %.17g %.17g %d %d %g %g %g %ld %ld "
                "%ld %ld %ld %ld %ld %ld %ld %ld %d\n",
                Id, D.kernel.c_str(), D.type.c_str(), D.streams(), D.access.c_str(),
                D.pattern.c_str(), K[0], S[0], K[1], S[1], K[2], S[2], Pol.minReps, Pol.maxReps,
                Pol.cvPct, Pol.capS, Pol.minRepS, C.work, C.repeats, W[0], W[1], W[2],
                C.workEvery, B[0], B[1], B[2], C.copies, C.jumps ? 1 : 0);
  std::string Cmd = Buf;
  if (::write(ToChild, Cmd.data(), Cmd.size()) != ssize_t(Cmd.size()))
    throw WorkError("the uB kernel program stopped reading (crashed?)");
  std::string Line;
  int Ch;
  while ((Ch = std::fgetc(FromChild)) != EOF && Ch != '\n')
    Line += char(Ch);
  if (Ch == EOF)
    throw WorkError("the uB kernel program died while measuring " + C.name() + " " + C.requested() +
                    " with " + std::to_string(Threads) + " threads");
  std::istringstream In(Line);
  long GotId;
  std::string Status;
  In >> GotId >> Status;
  if (GotId != Id)
    throw WorkError("the uB kernel program answered out of order: " + Line);
  if (Status == "error") {
    std::string Msg;
    std::getline(In, Msg);
    return Msg.empty() ? "error" : Msg.substr(1);
  }
  double Iters = 0;
  long Sweeps = 0;
  std::string Streams, Times;
  In >> Iters >> Sweeps >> Streams >> Times;
  if (Status != "ok" || !(Iters > 0) || Sweeps < 1 || Streams.empty() || Times.empty())
    throw WorkError("malformed answer from the uB kernel program: " + Line);
  std::vector<StreamTuple> T = parseStreams(Streams, "uB kernel program", "answer");
  std::vector<double> Reps;
  for (std::size_t Pos = 0; Pos < Times.size();) {
    std::size_t Comma = Times.find(',', Pos);
    Reps.push_back(std::strtod(Times.substr(Pos, Comma - Pos).c_str(), nullptr));
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  // Stored order: largest footprint first, as the matcher orders a phase's
  // streams, so stream i of a query meets stream i of a profile. The ops and
  // patterns follow their streams.
  std::vector<std::string> Ops = split(D.ops, ';');
  std::vector<std::size_t> Order(T.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::stable_sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
    return T[A].footprintKiB > T[B].footprintKiB;
  });
  P = Profile();
  P.ubench = C.name();
  P.threads = Threads;
  std::string OpsS, PatS;
  for (std::size_t I : Order) {
    P.streams.push_back(T[I]);
    OpsS += (OpsS.empty() ? "" : ";") + (I < Ops.size() ? Ops[I] : std::string("load"));
    PatS += D.pattern[I] == 'r' ? "random" : "strided";
    PatS += ';';
  }
  PatS.pop_back();
  P.params = {{"kernel", D.kernel},
              {"type", D.type},
              {"ops", OpsS},
              {"pattern", PatS},
              {"requested", C.requested()},
              {"bind", Bind.empty() ? "unset" : Bind},
              {"places", Places.empty() ? "unset" : Places},
              {"sweeps", std::to_string(Sweeps)}};
  // Recorded only where it is set (here or inherited): profiles of the
  // libomp default stay as they were.
  const char *EnvWait = std::getenv("OMP_WAIT_POLICY");
  if (!Wait.empty() || (EnvWait && *EnvWait))
    P.params["wait"] = Wait.empty() ? EnvWait : Wait;
  if (C.work)
    P.params["work"] = std::to_string(C.work);
  if (C.work && C.workEvery > 1)
    P.params["work_every"] = std::to_string(C.workEvery);
  if (C.hasWindows())
    P.params["repeats"] = std::to_string(C.repeats);
  if (C.span)
    P.params["span"] = std::to_string(C.span);
  if (C.span && C.jumps)
    P.params["runs"] = "jumping";
  if (C.copies > 1)
    P.params["copies"] = std::to_string(C.copies);
  if (C.every > 1) {
    P.params["every"] = std::to_string(C.every);
    Iters *= double(C.every); // the kernel's iterations each stand for C.every
  }
  Stats TS, US;
  computeStats(Reps, Iters, TS, US);
  P.timeS = TS.mean;
  P.iterations = Iters;
  P.tpiUs = US.mean;
  P.timeStats = TS;
  P.tpiStats = US;
  return "";
}

} // namespace phaseprobe
