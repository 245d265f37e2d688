//===- phaseprobe-db.cpp - Inspect and maintain an NPPDB --------------------===//
//
// The user's handle on the node performance profile database: list and show
// nodes, move profiles in and out in the CSV of CONTRACTS.md, merge another
// database, delete a node, check integrity and upgrade the schema. Every
// change is one transaction: a bad input leaves the database as it was.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/atomic_file.h"
#include "phaseprobe/cli.h"
#include "phaseprobe/error.h"
#include "phaseprobe/nppdb.h"
#include "phaseprobe/profile_csv.h"
#include "phaseprobe/stream_notation.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <set>

using namespace phaseprobe;

namespace {

std::string commandLine(int Argc, char **Argv) {
  std::string S;
  for (int I = 0; I < Argc; ++I) {
    if (I)
      S += ' ';
    S += Argv[I];
  }
  return S;
}

std::string orDash(const std::string &S) { return S.empty() ? "-" : S; }

std::string fmt(double V, const char *F = "%g") {
  char B[64];
  std::snprintf(B, sizeof B, F, V);
  return B;
}

int cmdNodes(const std::string &DbPath) {
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::ReadOnly);
  std::printf("%-16s %9s  %-14s %s\n", "node", "profiles", "threads", "cpu");
  for (const std::string &L : Db->nodes()) {
    std::string Th;
    for (unsigned T : Db->threadCounts(L))
      Th += (Th.empty() ? "" : ",") + std::to_string(T);
    std::optional<NodeInfo> N = Db->node(L);
    std::printf("%-16s %9zu  %-14s %s\n", L.c_str(), Db->profileCount(L), orDash(Th).c_str(),
                orDash(N ? N->cpu : "").c_str());
  }
  return ExitOk;
}

int cmdShow(const std::string &DbPath, const std::string &Node, bool Profiles) {
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::ReadOnly);
  std::vector<std::string> Labels = Db->nodes();
  if (!Node.empty()) {
    if (!Db->node(Node))
      throw InputError(DbPath, "", "no node '" + Node + "'");
    Labels = {Node};
  }
  std::printf("database %s: schema %d, %zu nodes, %zu profiles\n", DbPath.c_str(),
              Db->fileSchemaVersion(), Db->nodes().size(), Db->profileCount());
  for (const std::string &L : Labels) {
    NodeInfo N = *Db->node(L);
    std::printf("\nnode %s\n", L.c_str());
    if (N.cores == 0 && N.cpu.empty()) {
      std::printf("  (label only: imported, never probed)\n");
    } else {
      std::printf("  host %s, cpu %s\n", orDash(N.hostname).c_str(), orDash(N.cpu).c_str());
      std::printf("  %u sockets, %u cores, %u PUs, %u NUMA nodes, %s MiB memory\n", N.sockets,
                  N.cores, N.pus, N.numaNodes, fmt(N.memoryMiB, "%.0f").c_str());
      std::printf("  caches: L1d %s KiB, L2 %s KiB, L3 %s KiB\n", fmt(N.l1dKiB).c_str(),
                  fmt(N.l2KiB).c_str(), fmt(N.l3KiB).c_str());
    }
    std::vector<Profile> Ps = Db->profiles(L);
    // Summary per uB and thread count, with the worst dispersion so a noisy
    // profile is visible without listing them all.
    struct Agg {
      std::size_t N = 0;
      double MaxCv = -1;
    };
    std::map<std::pair<std::string, unsigned>, Agg> By;
    for (const Profile &P : Ps) {
      Agg &A = By[{P.ubench, P.threads}];
      ++A.N;
      if (P.tpiStats && P.tpiStats->mean > 0)
        A.MaxCv = std::max(A.MaxCv, P.tpiStats->stddev / P.tpiStats->mean * 100);
    }
    for (const auto &[R, Count] : Db->runs(L))
      std::printf("  run %lld: %s, %s, grid %s, phaseprobe %s, %zu profiles\n", (long long)R.id,
                  R.date.c_str(), orDash(R.compiler).c_str(), orDash(R.grid).c_str(),
                  R.toolVersion.c_str(), Count);
    std::printf("  %zu profiles\n", Ps.size());
    if (!Ps.empty())
      std::printf("  %-14s %7s %9s %10s\n", "ubench", "threads", "profiles", "max CV %");
    for (auto &KV : By)
      std::printf("  %-14s %7u %9zu %10s\n", KV.first.first.c_str(), KV.first.second, KV.second.N,
                  KV.second.MaxCv < 0 ? "-" : fmt(KV.second.MaxCv, "%.1f").c_str());
    if (Profiles) {
      std::printf("  %-8s %-12s %4s %12s %8s %6s  %s\n", "id", "ubench", "th", "tpi_us", "CV %",
                  "reps", "streams");
      for (const Profile &P : Ps) {
        std::string Cv = "-", Reps = "-";
        if (P.tpiStats && P.tpiStats->mean > 0) {
          Cv = fmt(P.tpiStats->stddev / P.tpiStats->mean * 100, "%.1f");
          Reps = std::to_string(P.tpiStats->count);
        }
        std::printf("  %-8lld %-12s %4u %12s %8s %6s  %s\n", (long long)P.id, P.ubench.c_str(),
                    P.threads, fmt(P.tpiUs, "%.6g").c_str(), Cv.c_str(), Reps.c_str(),
                    formatStreams(P.streams).c_str());
      }
    }
  }
  return ExitOk;
}

int cmdImport(const std::string &DbPath, const std::string &Csv, bool Replace,
              const std::string &Cmd) {
  // Parse everything first: a bad row must not even create the database.
  std::vector<CsvProfileRow> Rows = parseProfileCsv(readFile(Csv), Csv);
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::Create);
  LoadSummary S;
  Db->transaction([&] {
    std::vector<const CsvProfileRow *> Clashes;
    for (const CsvProfileRow &R : Rows)
      if (Db->existing(R.profile))
        Clashes.push_back(&R);
    if (!Clashes.empty() && !Replace) {
      const Profile &P = Clashes.front()->profile;
      throw InputError(Csv, "row " + std::to_string(Clashes.front()->row),
                       "profile " + P.node + "," + P.ubench + "," + std::to_string(P.threads) +
                           "," + formatStreams(P.streams) + " is already in " + DbPath + " (" +
                           std::to_string(Clashes.size()) +
                           " clashing rows; use --replace); nothing imported");
    }
    RunInfo Run;
    Run.grid = "import:" + Csv;
    Run.commandLine = Cmd;
    std::int64_t RunId = Db->addRun(Run);
    std::set<std::string> Before;
    for (auto &L : Db->nodes())
      Before.insert(L);
    for (const CsvProfileRow &R : Rows) {
      if (!Before.count(R.profile.node)) {
        Db->ensureNode(R.profile.node);
        if (Before.insert(R.profile.node).second)
          ++S.nodesAdded;
      }
      bool Clash = Replace && Db->existing(R.profile);
      Db->addProfile(R.profile, RunId, Replace);
      ++(Clash ? S.profilesReplaced : S.profilesAdded);
    }
  });
  std::printf("%s: imported %zu profiles (%zu replaced), %zu new nodes from %s\n", DbPath.c_str(),
              S.profilesAdded + S.profilesReplaced, S.profilesReplaced, S.nodesAdded, Csv.c_str());
  return ExitOk;
}

int cmdExport(const std::string &DbPath, const std::string &Node, const std::string &Out) {
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::ReadOnly);
  if (!Node.empty() && !Db->node(Node))
    throw InputError(DbPath, "", "no node '" + Node + "'");
  std::string Csv = formatProfileCsv(Db->profiles(Node));
  if (Out.empty() || Out == "-") {
    std::fwrite(Csv.data(), 1, Csv.size(), stdout);
    if (std::fflush(stdout) != 0)
      throw WorkError("cannot write to stdout");
  } else {
    writeFileAtomically(Out, Csv);
  }
  return ExitOk;
}

int cmdMerge(const std::string &DbPath, const std::string &Other, bool Replace) {
  auto O = Nppdb::open(Other, Nppdb::Mode::ReadOnly);
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::Create);
  LoadSummary S = Db->merge(*O, Replace);
  std::printf("%s: merged %zu profiles (%zu replaced), %zu new nodes from %s\n", DbPath.c_str(),
              S.profilesAdded + S.profilesReplaced, S.profilesReplaced, S.nodesAdded,
              Other.c_str());
  return ExitOk;
}

int cmdDelete(const std::string &DbPath, const std::string &Node) {
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::ReadWrite);
  std::size_t N = Db->deleteNode(Node);
  std::printf("%s: deleted node %s and its %zu profiles\n", DbPath.c_str(), Node.c_str(), N);
  return ExitOk;
}

int cmdCheck(const std::string &DbPath) {
  auto Db = Nppdb::open(DbPath, Nppdb::Mode::ReadOnly);
  std::vector<std::string> Problems = Db->check();
  for (const std::string &P : Problems)
    std::printf("%s\n", P.c_str());
  if (!Problems.empty())
    throw InputError(DbPath, "", std::to_string(Problems.size()) + " problems found");
  std::printf("%s: ok (schema %d, %zu nodes, %zu profiles)\n", DbPath.c_str(), Nppdb::SchemaVersion,
              Db->nodes().size(), Db->profileCount());
  return ExitOk;
}

int cmdUpgrade(const std::string &DbPath) {
  int Was = Nppdb::upgrade(DbPath);
  if (Was == Nppdb::SchemaVersion)
    std::printf("%s: schema %d is current, nothing to do\n", DbPath.c_str(), Was);
  else
    std::printf("%s: upgraded schema %d -> %d\n", DbPath.c_str(), Was, Nppdb::SchemaVersion);
  return ExitOk;
}

} // namespace

int main(int Argc, char **Argv) {
  CLI::App App{"phaseprobe-db: inspect and maintain a node performance profile database "
               "(NPPDB)"};
  App.require_subcommand(1);
  App.set_version_flag("--version", version());
  std::string Db, Node, File, Out;
  bool Replace = false, Profiles = false;
  auto DbOpt = [&](CLI::App *S) {
    S->add_option("--db", Db, "the NPPDB file (SQLite)")->required();
  };
  CLI::App *Nodes = App.add_subcommand("nodes", "list the nodes, their profile counts and CPUs");
  DbOpt(Nodes);
  CLI::App *Show = App.add_subcommand("show", "describe nodes and summarize their profiles");
  DbOpt(Show);
  Show->add_option("--node", Node, "only this node");
  Show->add_flag("--profiles", Profiles, "list every profile (tpi, dispersion, streams)");
  CLI::App *Import = App.add_subcommand(
      "import", "load profiles from CSV (node,ubench,threads,time_s,iterations,tpi_us,"
                "streams); all or nothing; creates the database and missing nodes");
  DbOpt(Import);
  Import->add_option("file", File, "the CSV file")->required();
  Import->add_flag("--replace", Replace, "replace profiles that already exist");
  CLI::App *Export = App.add_subcommand("export", "write profiles as CSV (the import format)");
  DbOpt(Export);
  Export->add_option("--node", Node, "only this node");
  Export->add_option("-o,--output", Out, "output file (default: stdout)");
  CLI::App *Merge = App.add_subcommand("merge", "copy every node, run and profile of another "
                                                "NPPDB into this one (all or nothing)");
  DbOpt(Merge);
  Merge->add_option("other", File, "the NPPDB to merge from")->required();
  Merge->add_flag("--replace", Replace, "replace profiles that already exist");
  CLI::App *Delete = App.add_subcommand("delete", "delete a node and all its profiles");
  DbOpt(Delete);
  Delete->add_option("--node", Node, "the node")->required();
  CLI::App *Check = App.add_subcommand("check", "verify integrity and schema");
  DbOpt(Check);
  CLI::App *Upgrade = App.add_subcommand("upgrade", "migrate the database to this "
                                                    "phaseprobe's schema version");
  DbOpt(Upgrade);
  std::string Cmd = commandLine(Argc, Argv);

  return runTool("phaseprobe-db", App, Argc, Argv, [&]() -> int {
    if (*Nodes)
      return cmdNodes(Db);
    if (*Show)
      return cmdShow(Db, Node, Profiles);
    if (*Import)
      return cmdImport(Db, File, Replace, Cmd);
    if (*Export)
      return cmdExport(Db, Node, Out);
    if (*Merge)
      return cmdMerge(Db, File, Replace);
    if (*Delete)
      return cmdDelete(Db, Node);
    if (*Check)
      return cmdCheck(Db);
    if (*Upgrade)
      return cmdUpgrade(Db);
    throw InputError("", "", "no command given (see --help)");
  });
}
