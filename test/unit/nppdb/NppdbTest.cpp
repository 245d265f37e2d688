//===- NppdbTest.cpp - Schema, open checks, writers and the scan ----------===//
#include "phaseprobe/nppdb.h"
#include "phaseprobe/error.h"
#include "phaseprobe/node_probe.h"
#include "phaseprobe/profile_csv.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <atomic>
#include <random>
#include <thread>
#include <unistd.h>
#include <sched.h>
#include <algorithm>
#include <vector>

using namespace phaseprobe;

namespace {

/// A fresh path in a private temp directory, removed with its WAL files.
class TempDb {
public:
  TempDb() {
    char Tmpl[] = "/tmp/pp-nppdb-XXXXXX";
    Dir = ::mkdtemp(Tmpl);
    Path = Dir + "/t.sqlite";
  }
  ~TempDb() {
    // Tests may open a second database beside the first; SQLite leaves
    // its WAL and shared-memory files next to each.
    for (const std::string &Db : {Path, Dir + "/other.sqlite"})
      for (const char *S : {"", "-wal", "-shm", "-journal"})
        std::remove((Db + S).c_str());
    ::rmdir(Dir.c_str());
  }
  std::string Dir, Path;
};

Profile makeProfile(const std::string &Node, const std::string &UB, unsigned Th,
                    std::vector<StreamTuple> S, double Tpi) {
  Profile P;
  P.node = Node;
  P.ubench = UB;
  P.threads = Th;
  P.streams = std::move(S);
  P.tpiUs = Tpi;
  return P;
}

StreamTuple st(double K, double S, unsigned E, Access A) {
  StreamTuple T;
  T.footprintKiB = K;
  T.strideBytes = S;
  T.elemBytes = E;
  T.access = A;
  return T;
}

void sqlExec(const std::string &Path, const std::string &Sql) {
  sqlite3 *Db = nullptr;
  ASSERT_EQ(sqlite3_open(Path.c_str(), &Db), SQLITE_OK);
  char *Err = nullptr;
  int Rc = sqlite3_exec(Db, Sql.c_str(), nullptr, nullptr, &Err);
  EXPECT_EQ(Rc, SQLITE_OK) << (Err ? Err : "");
  sqlite3_free(Err);
  sqlite3_close(Db);
}

template <typename F> std::string inputErrorOf(F &&Fn) {
  try {
    Fn();
  } catch (const InputError &E) {
    return E.what();
  }
  return "<no InputError>";
}

} // namespace

// Processes that create one database at the same moment (`ubench run`
// side by side) meet in SQLite's lock upgrades, where it answers busy
// without waiting; every opener must still get the database. Connections
// of several threads race the same way as processes.
TEST(Nppdb, OpenersCreatingOneFileAtOnceAllSucceed) {
  for (int Round = 0; Round < 20; ++Round) {
    TempDb T;
    const int N = 4;
    std::atomic<int> Ready{0};
    std::atomic<int> Failed{0};
    std::string Why;
    std::vector<std::thread> Threads;
    for (int I = 0; I < N; ++I)
      Threads.emplace_back([&] {
        ++Ready;
        while (Ready < N) {
        }
        try {
          auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
          Db->transaction([&] {});
        } catch (const std::exception &E) {
          if (Failed++ == 0)
            Why = E.what();
        }
      });
    for (std::thread &Th : Threads)
      Th.join();
    ASSERT_EQ(Failed, 0) << "round " << Round << ": " << Why;
    EXPECT_EQ(Nppdb::open(T.Path, Nppdb::Mode::ReadOnly)->fileSchemaVersion(),
              Nppdb::SchemaVersion);
  }
}

TEST(Nppdb, MissingFileIsNeverCreatedByAccident) {
  TempDb T;
  EXPECT_NE(
      inputErrorOf([&] { Nppdb::open(T.Path, Nppdb::Mode::ReadOnly); }).find("no such database"),
      std::string::npos);
  EXPECT_NE(
      inputErrorOf([&] { Nppdb::open(T.Path, Nppdb::Mode::ReadWrite); }).find("no such database"),
      std::string::npos);
  EXPECT_NE(access(T.Path.c_str(), F_OK), 0);
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
  EXPECT_EQ(Db->fileSchemaVersion(), Nppdb::SchemaVersion);
  EXPECT_TRUE(Db->nodes().empty());
  EXPECT_TRUE(Db->check().empty());
}

TEST(Nppdb, RejectsNonDatabasesAndForeignDatabases) {
  TempDb T;
  {
    std::ofstream(T.Path) << "this is not a database, just text that is long enough "
                             "to fill a header of one hundred bytes for SQLite to look "
                             "at and reject.\n";
  }
  std::string E = inputErrorOf([&] { Nppdb::open(T.Path, Nppdb::Mode::ReadOnly); });
  EXPECT_NE(E.find(T.Path + ": "), std::string::npos) << E;
  EXPECT_NE(E.find("not a valid SQLite database"), std::string::npos) << E;
  std::remove(T.Path.c_str());

  sqlExec(T.Path, "CREATE TABLE t(x); PRAGMA application_id = 1234;");
  E = inputErrorOf([&] { Nppdb::open(T.Path, Nppdb::Mode::ReadWrite); });
  EXPECT_NE(E.find("not an NPPDB"), std::string::npos) << E;
}

TEST(Nppdb, SchemaVersionChecks) {
  TempDb T;
  Nppdb::open(T.Path, Nppdb::Mode::Create);
  sqlExec(T.Path, "PRAGMA user_version = 99;");
  std::string E = inputErrorOf([&] { Nppdb::open(T.Path, Nppdb::Mode::ReadOnly); });
  EXPECT_NE(E.find("newer"), std::string::npos) << E;
  sqlExec(T.Path, "PRAGMA user_version = 0;");
  E = inputErrorOf([&] { Nppdb::open(T.Path, Nppdb::Mode::ReadOnly); });
  EXPECT_NE(E.find("invalid schema version 0"), std::string::npos) << E;
}

TEST(Nppdb, SchemaHasACommentOnEveryColumn) {
  std::string S = Nppdb::schemaSql();
  std::size_t Pos = 0, Checked = 0;
  // Every line inside a CREATE TABLE body that declares a column ends in a
  // `--` comment (STYLE.md: Fossil).
  bool InTable = false;
  while (Pos < S.size()) {
    std::size_t End = S.find('\n', Pos);
    if (End == std::string::npos)
      End = S.size();
    std::string L = S.substr(Pos, End - Pos);
    Pos = End + 1;
    if (L.rfind("CREATE TABLE", 0) == 0) {
      InTable = true;
      continue;
    }
    if (InTable && L.rfind(");", 0) == 0) {
      InTable = false;
      continue;
    }
    if (InTable && L.find_first_not_of(' ') != std::string::npos &&
        L.find("--") != std::string::npos) {
      ++Checked;
    } else if (InTable) {
      ADD_FAILURE() << "column without comment: " << L;
    }
  }
  EXPECT_GT(Checked, 30u);
}

TEST(Nppdb, NodesRunsProfilesRoundTrip) {
  TempDb T;
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
  NodeInfo N;
  N.label = "bn";
  N.hostname = "h";
  N.cpu = "Some CPU";
  N.cores = 4;
  N.pus = 8;
  N.sockets = 1;
  N.numaNodes = 1;
  N.l1dKiB = 32;
  N.l2KiB = 1024;
  N.l3KiB = 8192;
  N.memoryMiB = 16000;
  Db->putNode(N);
  Db->ensureNode("tn1");
  RunInfo R;
  R.grid = "quick";
  std::int64_t Run = Db->addRun(R);
  Profile P =
      makeProfile("bn", "mbw2hc", 4,
                  {st(15617, 32000, 8, Access::Shared), st(3124, 8, 8, Access::Shared)}, 0.01316);
  P.timeS = 3.96;
  P.iterations = 3e8;
  P.params = {{"op", "madd"}, {"type", "double"}};
  Stats TS{3.96, 3.95, 3.9, 4.1, 0.05, 30}, US{0.01316, 0.013, 0.0129, 0.0137, 0.0002, 30};
  P.timeStats = TS;
  P.tpiStats = US;
  std::int64_t Id = Db->addProfile(P, Run, false);

  EXPECT_EQ(Db->nodes(), (std::vector<std::string>{"bn", "tn1"}));
  EXPECT_EQ(Db->node("bn")->cpu, "Some CPU");
  EXPECT_EQ(Db->node("bn")->l3KiB, 8192);
  EXPECT_EQ(Db->node("tn1")->cores, 0u);
  EXPECT_FALSE(Db->node("nope"));
  EXPECT_EQ(Db->threadCounts("bn"), std::vector<unsigned>{4});
  Profile Q = Db->profile(Id);
  EXPECT_EQ(Q.ubench, "mbw2hc");
  EXPECT_EQ(Q.streams, P.streams);
  EXPECT_EQ(Q.params, P.params);
  EXPECT_DOUBLE_EQ(*Q.timeS, 3.96);
  ASSERT_TRUE(Q.tpiStats);
  EXPECT_EQ(Q.tpiStats->count, 30u);
  EXPECT_DOUBLE_EQ(Q.tpiStats->stddev, 0.0002);
  EXPECT_TRUE(Db->find("bn", "mbw2hc", P.streams, 4));
  EXPECT_FALSE(Db->find("bn", "mbw2hc", P.streams, 2));
  EXPECT_FALSE(Db->find("tn1", "mbw2hc", P.streams, 4));
  auto Swapped = P.streams;
  std::swap(Swapped[0], Swapped[1]);
  EXPECT_FALSE(Db->find("bn", "mbw2hc", Swapped, 4)); // order is part of the key

  // The key clashes without Replace and is replaced with it.
  EXPECT_NE(inputErrorOf([&] { Db->addProfile(P, Run, false); }).find("already exists"),
            std::string::npos);
  P.tpiUs = 0.02;
  std::int64_t Id2 = Db->addProfile(P, Run, true);
  EXPECT_EQ(Db->profileCount(), 1u);
  EXPECT_DOUBLE_EQ(Db->profile(Id2).tpiUs, 0.02);
  EXPECT_TRUE(Db->check().empty());

  RunInfo Other;
  Other.grid = "in progress elsewhere";
  std::int64_t Fresh = Db->addRun(Other); // no profiles yet
  EXPECT_EQ(Db->deleteNode("bn"), 1u);
  EXPECT_EQ(Db->profileCount(), 0u);
  EXPECT_FALSE(Db->run(Run));  // a run left without profiles goes with them
  EXPECT_TRUE(Db->run(Fresh)); // a run that has none yet stays
  EXPECT_NE(inputErrorOf([&] { Db->deleteNode("bn"); }).find("no node 'bn'"), std::string::npos);
}

TEST(Nppdb, TransactionsAreAllOrNothing) {
  TempDb T;
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
  EXPECT_THROW(Db->transaction([&] {
    Db->ensureNode("a");
    Db->addProfile(makeProfile("a", "u", 1, {st(4, 8, 8, Access::Private)}, 1), 0, false);
    Db->addProfile(makeProfile("a", "u", 1, {st(4, 8, 8, Access::Private)}, 1), 0, false);
  }),
               InputError);
  EXPECT_TRUE(Db->nodes().empty());
  EXPECT_EQ(Db->profileCount(), 0u);
}

TEST(Nppdb, ReadOnlyRefusesWrites) {
  TempDb T;
  Nppdb::open(T.Path, Nppdb::Mode::Create)->ensureNode("a");
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::ReadOnly);
  EXPECT_EQ(Db->nodes(), std::vector<std::string>{"a"});
  EXPECT_THROW(Db->ensureNode("b"), InputError);
}

TEST(Nppdb, MergeCopiesAndReportsClashes) {
  TempDb T;
  std::string Other = T.Dir + "/other.sqlite";
  {
    auto O = Nppdb::open(Other, Nppdb::Mode::Create);
    NodeInfo N;
    N.label = "tn1";
    N.cpu = "X";
    N.cores = 2;
    O->putNode(N);
    RunInfo R;
    R.grid = "quick";
    auto Run = O->addRun(R);
    O->addProfile(makeProfile("tn1", "mbw1c", 2, {st(64, 8, 8, Access::Shared)}, 0.5), Run, false);
    O->addProfile(makeProfile("tn1", "mbw1p", 2, {st(64, 8, 8, Access::Private)}, 0.6), Run, false);
  }
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
  Db->ensureNode("tn1"); // label-only here: takes the other's description
  Db->addProfile(makeProfile("tn1", "mbw1c", 2, {st(64, 8, 8, Access::Shared)}, 0.9), 0, false);
  auto O = Nppdb::open(Other, Nppdb::Mode::ReadOnly);
  std::string E = inputErrorOf([&] { Db->merge(*O, false); });
  EXPECT_NE(E.find("already exists"), std::string::npos) << E;
  EXPECT_EQ(Db->profileCount(), 1u);
  EXPECT_EQ(Db->node("tn1")->cpu, ""); // rolled back
  LoadSummary S = Db->merge(*O, true);
  EXPECT_EQ(S.profilesAdded, 1u);
  EXPECT_EQ(S.profilesReplaced, 1u);
  EXPECT_EQ(Db->profileCount(), 2u);
  EXPECT_EQ(Db->node("tn1")->cpu, "X");
  auto P = Db->find("tn1", "mbw1c", {st(64, 8, 8, Access::Shared)}, 2);
  ASSERT_TRUE(P);
  EXPECT_DOUBLE_EQ(P->tpiUs, 0.5);
  EXPECT_TRUE(Db->check().empty());
}

// One request ("10219.921875:8") measures 10219.921875 KiB at 2 threads and
// 10219.875 KiB at 16 (whole elements per thread): the profile at 16 is
// found from the streams measured at 2, of the same uB, on any node.
TEST(Nppdb, StreamsAtFollowsTheRequestAcrossThreadCounts) {
  TempDb T;
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
  for (const char *N : {"base", "other"})
    Db->ensureNode(N);
  auto Req = [](Profile P, const std::string &R) {
    P.params["requested"] = R;
    return P;
  };
  const std::vector<StreamTuple> At2 = {st(10219.921875, 8, 8, Access::Private)};
  const std::vector<StreamTuple> At16 = {st(10219.875, 8, 8, Access::Private)};
  Db->addProfile(Req(makeProfile("base", "cpy1p+w3", 2, At2, 0.5), "10219.921875:8"), 0, false);
  Db->addProfile(Req(makeProfile("other", "cpy1p+w3", 16, At16, 0.1), "10219.921875:8"), 0, false);
  // Another uB with the same request, and the same uB with another request.
  Db->addProfile(Req(makeProfile("other", "cpy1p+w5", 16, {st(10219.5, 8, 8, Access::Private)}, 0.2),
                     "10219.921875:8"),
                 0, false);
  Db->addProfile(Req(makeProfile("other", "cpy1p+w3", 16, {st(512, 8, 8, Access::Private)}, 0.3),
                     "512:8"),
                 0, false);
  auto S = Db->streamsAt("other", "cpy1p+w3", At2, 16);
  ASSERT_TRUE(S);
  EXPECT_EQ(*S, At16);
  EXPECT_FALSE(Db->streamsAt("other", "cpy1p+w3", At2, 8)); // not measured at 8
  EXPECT_FALSE(Db->streamsAt("nobody", "cpy1p+w3", At2, 16));
  EXPECT_FALSE(Db->streamsAt("other", "cpy1p+w3", {st(64, 8, 8, Access::Private)}, 16));
  // Any uB: the first match of a request measured with these streams.
  auto Any = Db->streamsAt("other", "", At2, 16);
  ASSERT_TRUE(Any);
  EXPECT_EQ(Any->size(), 1u);
  // A profile stored without its request is found only exactly.
  Db->addProfile(makeProfile("base", "mbw1p", 2, {st(999.9, 8, 8, Access::Private)}, 0.5), 0, false);
  Db->addProfile(makeProfile("other", "mbw1p", 16, {st(999.5, 8, 8, Access::Private)}, 0.5), 0, false);
  EXPECT_FALSE(Db->streamsAt("other", "mbw1p", {st(999.9, 8, 8, Access::Private)}, 16));
}

TEST(Nppdb, CheckFindsInconsistentDerivedColumns) {
  TempDb T;
  {
    auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
    Db->ensureNode("a");
    Db->addProfile(makeProfile("a", "u", 1, {st(4, 8, 8, Access::Private)}, 1), 0, false);
  }
  sqlExec(T.Path, "UPDATE profiles SET first_footprint_kib = 5, streams_text = 'x'");
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::ReadOnly);
  auto Problems = Db->check();
  ASSERT_EQ(Problems.size(), 2u);
  EXPECT_NE(Problems[0].find("streams_text"), std::string::npos);
}

TEST(Nppdb, StreamBlobsRejectGarbage) {
  std::vector<StreamTuple> S = {st(1.5, 4, 4, Access::Private), st(1e6, 32768, 8, Access::Shared)};
  std::string B = packStreams(S);
  EXPECT_EQ(B.size(), 48u);
  StreamTuple Out[4];
  unsigned N = 0;
  ASSERT_TRUE(unpackStreams(B.data(), B.size(), Out, 4, N));
  EXPECT_EQ(N, 2u);
  EXPECT_EQ(Out[1], S[1]);
  EXPECT_FALSE(unpackStreams(B.data(), 47, Out, 4, N));
  EXPECT_FALSE(unpackStreams(B.data(), B.size(), Out, 1, N));
  B[20] = 7; // access field out of range
  EXPECT_FALSE(unpackStreams(B.data(), B.size(), Out, 4, N));
}

// The matcher's access path: 10^5 profiles (10^6 in bench), filtered by node,
// threads and stream count, with optional ranges pushed into SQL.
TEST(Nppdb, ScanFiltersAndIsFast) {
  TempDb T;
  auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
  const unsigned Total = 100000;
  std::mt19937 Rng(42);
  std::uniform_real_distribution<double> Fp(1, 1e6), Tpi(1e-3, 1);
  unsigned Expect3 = 0, ExpectRange = 0;
  Db->transaction([&] {
    Db->ensureNode("bn");
    Db->ensureNode("tn");
    for (unsigned I = 0; I < Total; ++I) {
      unsigned NS = 1 + I % 3, Th = (I / 3) % 2 ? 4 : 2;
      std::vector<StreamTuple> S;
      double First = Fp(Rng);
      for (unsigned K = 0; K < NS; ++K)
        S.push_back(st(K ? Fp(Rng) : First, 8 << K, 8, Access(K % 2)));
      double Tp = Tpi(Rng);
      Db->addProfile(makeProfile("bn", "u" + std::to_string(I), Th, S, Tp), 0, false);
      if (NS == 3 && Th == 4) {
        ++Expect3;
        ExpectRange += First >= 1000 && First <= 2000 && Tp >= 0.1 && Tp <= 0.5;
      }
    }
  });
  Db.reset();
  Db = Nppdb::open(T.Path, Nppdb::Mode::ReadOnly);

  Nppdb::ScanFilter F;
  F.Node = "bn";
  F.Threads = 4;
  F.NStreams = 3;
  unsigned Seen = 0;
  bool Shapes = true;
  auto Start = std::chrono::steady_clock::now();
  Db->scan(F, [&](const Nppdb::ProfileView &V) {
    ++Seen;
    Shapes &= V.NStreams == 3 && V.Threads == 4 && V.Streams[1].strideBytes == 16 &&
              V.Streams[2].access == Access::Shared && V.UBench[0] == 'u';
  });
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  EXPECT_EQ(Seen, Expect3);
  EXPECT_TRUE(Shapes);
  // Generous bound for a loaded 2-core CI machine; bench/ubench measures 10^6.
  EXPECT_LT(Secs, 1.0) << Seen << " rows";

  F.FirstFootprintKiB = std::make_pair(1000.0, 2000.0);
  F.TpiUs = std::make_pair(0.1, 0.5);
  Seen = 0;
  Db->scan(F, [&](const Nppdb::ProfileView &V) {
    ++Seen;
    EXPECT_GE(V.Streams[0].footprintKiB, 1000);
    EXPECT_LE(V.TpiUs, 0.5);
  });
  EXPECT_EQ(Seen, ExpectRange);

  F.Node = "tn";
  Seen = 0;
  Db->scan(F, [&](const Nppdb::ProfileView &) { ++Seen; });
  EXPECT_EQ(Seen, 0u);
  F.Node = "nope";
  Db->scan(F, [&](const Nppdb::ProfileView &) { ++Seen; });
  EXPECT_EQ(Seen, 0u);
}

TEST(ProfileCsv, RoundTripsTheContractExample) {
  std::string Csv = "node,ubench,threads,time_s,iterations,tpi_us,streams\n"
                    "bn,mbw1cX,4,,,0.01242,15869:30000:8:shared\n"
                    "bn,mbwXA2hc,4,3.96,300000000,0.01316,15617:32000:8:shared;3124:8:8:shared\n";
  auto Rows = parseProfileCsv(Csv, "p.csv");
  ASSERT_EQ(Rows.size(), 2u);
  EXPECT_EQ(Rows[1].row, 3u);
  EXPECT_FALSE(Rows[0].profile.timeS);
  EXPECT_EQ(Rows[1].profile.streams.size(), 2u);
  std::vector<Profile> Ps;
  for (auto &R : Rows)
    Ps.push_back(R.profile);
  EXPECT_EQ(formatProfileCsv(Ps), Csv);
}

TEST(ProfileCsv, ErrorsNameRowAndField) {
  auto Err = [](const std::string &Body) {
    return inputErrorOf([&] {
      parseProfileCsv("node,ubench,threads,time_s,iterations,tpi_us,streams\n" + Body, "p.csv");
    });
  };
  EXPECT_EQ(Err("bn,u,4,,,abc,1:8:8:shared\n"),
            "p.csv: row 2, field tpi_us: 'abc' is not a number");
  EXPECT_EQ(Err("bn,u,4,,,1,1:8:8:shared\nbn,u,0,,,1,1:8:8:shared\n"),
            "p.csv: row 3, field threads: '0' must be > 0");
  EXPECT_NE(Err("bn,u,4,,,1,1:8:8:both\n").find("row 2, field streams, stream 1"),
            std::string::npos);
  EXPECT_NE(Err("bn,u,4,,,1\n").find("row 2: has 6 fields"), std::string::npos);
  EXPECT_NE(Err("bn,u,4,,,,1:8:8:shared\n").find("field tpi_us: is empty"), std::string::npos);
  EXPECT_NE(Err("bn,u,4,,,1,1:8:8:shared\nbn,u,4,,,2,1:8:8:shared\n")
                .find("row 3: repeats the profile of row 2"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] {
              parseProfileCsv("node,ubench,threads,tpi_us,bogus\n", "p.csv");
            }).find("row 1, column 5: unknown column 'bogus'"),
            std::string::npos);
  EXPECT_NE(inputErrorOf([] {
              parseProfileCsv("node,ubench,threads\n", "p.csv");
            }).find("missing column 'time_s'"),
            std::string::npos);
  // tpi derived from time and iterations.
  auto R = parseProfileCsv("streams,tpi_us,iterations,time_s,threads,ubench,node\n"
                           "1:8:8:shared,,2000000,2,1,u,bn\n",
                           "p.csv");
  EXPECT_DOUBLE_EQ(R[0].profile.tpiUs, 1.0);
}

TEST(NodeProbe, DescribesThisMachine) {
  NodeInfo N = probeNode("here");
  EXPECT_EQ(N.label, "here");
  EXPECT_FALSE(N.hostname.empty());
  EXPECT_GE(N.cores, 1u);
  EXPECT_GE(N.pus, N.cores);
  EXPECT_GE(N.memoryMiB, 1.0);
  // Caches may be hidden in some virtual machines; when reported they nest.
  if (N.l1dKiB > 0 && N.l2KiB > 0) {
    EXPECT_LE(N.l1dKiB, N.l2KiB);
  }
  EXPECT_EQ(hostName(), N.hostname);
}

// One place per core, every PU this process may run on in exactly one of
// them: what OMP_PLACES=cores means to the OS, whatever libomp reads from
// CPUID (run hk's VM: two cores to Linux, one to libomp).
TEST(NodeProbe, CorePlacesHoldEveryAllowedPUOnce) {
  std::string P = corePlaces();
  ASSERT_FALSE(P.empty());
  cpu_set_t Mine;
  ASSERT_EQ(sched_getaffinity(0, sizeof Mine, &Mine), 0);
  std::vector<int> Seen;
  unsigned Places = 0;
  for (std::size_t I = 0; I < P.size();) {
    ASSERT_EQ(P[I], '{') << P;
    std::size_t E = P.find('}', I);
    ASSERT_NE(E, std::string::npos) << P;
    ++Places;
    std::string In = P.substr(I + 1, E - I - 1);
    for (std::size_t J = 0; J <= In.size();) {
      std::size_t C = std::min(In.find(',', J), In.size());
      Seen.push_back(std::stoi(In.substr(J, C - J)));
      J = C + 1;
    }
    I = E + 1;
    if (I < P.size()) {
      ASSERT_EQ(P[I], ',') << P;
      ++I;
    }
  }
  std::sort(Seen.begin(), Seen.end());
  EXPECT_EQ(std::adjacent_find(Seen.begin(), Seen.end()), Seen.end()) << P;
  EXPECT_EQ(int(Seen.size()), CPU_COUNT(&Mine)) << P;
  for (int C : Seen)
    EXPECT_TRUE(CPU_ISSET(C, &Mine)) << C;
  EXPECT_LE(Places, probeNode("here").cores);
}

// A label names a design: the CPU model (hwloc's blank padding aside), L1d
// and L2 must agree; host, memory and L3 may not; a label-only node (CSV
// import) agrees with anything.
TEST(NodeProbe, DesignDifferenceComparesModelAndPerCoreCaches) {
  NodeInfo A;
  A.cpu = "AMD EPYC  ", A.hostname = "vm1", A.l1dKiB = 32, A.l2KiB = 1024, A.l3KiB = 32768;
  A.memoryMiB = 10000;
  NodeInfo B = A;
  B.cpu = "AMD EPYC", B.hostname = "vm2", B.l3KiB = 520192, B.memoryMiB = 11610;
  EXPECT_EQ(designDifference(A, B), "");
  EXPECT_EQ(designDifference(NodeInfo{}, B), "");
  B.l1dKiB = 48;
  EXPECT_EQ(designDifference(A, B), "characterized on 'AMD EPYC' (L1d 32 KiB, L2 1024 KiB), "
                                    "this machine is 'AMD EPYC' (L1d 48 KiB, L2 1024 KiB)");
  B = A, B.l2KiB = 512;
  EXPECT_NE(designDifference(A, B), "");
  B = A, B.cpu = "Oxide Virtual Turin-like Processor";
  EXPECT_NE(designDifference(A, B), "");
}

// The migration machinery, with synthetic steps (schema 1 is the only real
// version so far; core/sql/migrations/ is empty): each step runs in its own
// transaction, a failing step leaves the file at the version before it, and
// a file migrated past this build's version is refused as newer.
TEST(Nppdb, MigrationsRunStepByStepAndAtomically) {
  TempDb T;
  {
    auto Db = Nppdb::open(T.Path, Nppdb::Mode::Create);
    Db->ensureNode("bn");
    Db->addProfile(makeProfile("bn", "u", 1, {st(64, 8, 8, Access::Shared)}, 0.5), 0, false);
  }
  using detail::MigrationStep;
  std::vector<MigrationStep> Steps = {
      {2, "ALTER TABLE nodes ADD COLUMN rack TEXT; UPDATE nodes SET rack = 'r1';"},
      {3, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);"},
      {4, "INSERT INTO notes (text) VALUES ('x'); SELECT no_such_function();"}};
  // Step 4 fails: 2 and 3 stay applied, 4's insert is rolled back.
  EXPECT_THROW(detail::openAs(T.Path, Nppdb::Mode::ReadWrite, Steps, 4), WorkError);
  sqlite3 *Raw = nullptr;
  ASSERT_EQ(sqlite3_open(T.Path.c_str(), &Raw), SQLITE_OK);
  auto Int = [&](const char *Sql) {
    sqlite3_stmt *S = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(Raw, Sql, -1, &S, nullptr), SQLITE_OK) << Sql;
    std::int64_t V = sqlite3_step(S) == SQLITE_ROW ? sqlite3_column_int64(S, 0) : -1;
    sqlite3_finalize(S);
    return V;
  };
  EXPECT_EQ(Int("PRAGMA user_version"), 3);
  EXPECT_EQ(Int("SELECT count(*) FROM notes"), 0);
  EXPECT_EQ(Int("SELECT count(*) FROM nodes WHERE rack = 'r1'"), 1);
  // Fixed step 4: the upgrade resumes from 3; re-running it is a no-op.
  Steps[2].sql = "INSERT INTO notes (text) VALUES ('x');";
  EXPECT_EQ(detail::openAs(T.Path, Nppdb::Mode::ReadWrite, Steps, 4)->fileSchemaVersion(), 3);
  EXPECT_EQ(detail::openAs(T.Path, Nppdb::Mode::ReadWrite, Steps, 4)->fileSchemaVersion(), 4);
  EXPECT_EQ(Int("SELECT count(*) FROM notes"), 1);
  EXPECT_EQ(Int("SELECT count(*) FROM profiles"), 1);
  sqlite3_close(Raw);
  // This build (schema 1) refuses the migrated file instead of misreading it.
  EXPECT_NE(inputErrorOf([&] {
              Nppdb::open(T.Path, Nppdb::Mode::ReadOnly);
            }).find("schema version 4 is newer"),
            std::string::npos);
}

TEST(Nppdb, ReadOnlyRefusesAnOlderSchema) {
  TempDb T;
  Nppdb::open(T.Path, Nppdb::Mode::Create);
  // Seen from a build whose schema is 2, this version-1 file is older: a
  // reader must not migrate it behind the user's back.
  std::vector<detail::MigrationStep> Steps = {{2, "CREATE TABLE extra (x);"}};
  std::string E = inputErrorOf([&] { detail::openAs(T.Path, Nppdb::Mode::ReadOnly, Steps, 2); });
  EXPECT_NE(E.find("schema version 1 is older than this phaseprobe's (2); run "
                   "`phaseprobe-db upgrade --db " +
                   T.Path + "`"),
            std::string::npos)
      << E;
  EXPECT_EQ(detail::openAs(T.Path, Nppdb::Mode::ReadWrite, Steps, 2)->fileSchemaVersion(), 1);
  EXPECT_EQ(detail::openAs(T.Path, Nppdb::Mode::ReadOnly, Steps, 2)->fileSchemaVersion(), 2);
}
