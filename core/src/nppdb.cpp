//===- nppdb.cpp - The node performance profile database -------------------===//
//
// SQLite access for the NPPDB: opening (identity, version and migration
// checks), the matcher's scan, the estimator's find, and the transactional
// writers. The schema itself is core/sql/schema.sql, embedded at build time.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/nppdb.h"
#include "phaseprobe/cli.h"
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <map>
#include <thread>
#include <sys/stat.h>

namespace phaseprobe {

#include "phaseprobe/nppdb_sql.inc"

const char *Nppdb::schemaSql() { return NppdbSchemaSql; }

//===--- Stream blobs -------------------------------------------------------===//

static constexpr std::size_t PackedStreamBytes = 24;

static void putLE(std::string &Out, std::uint64_t V, int Bytes) {
  for (int I = 0; I < Bytes; ++I)
    Out.push_back(char((V >> (8 * I)) & 0xff));
}
static std::uint64_t getLE(const unsigned char *P, int Bytes) {
  std::uint64_t V = 0;
  for (int I = 0; I < Bytes; ++I)
    V |= std::uint64_t(P[I]) << (8 * I);
  return V;
}

std::string packStreams(const std::vector<StreamTuple> &Streams) {
  std::string Out;
  Out.reserve(Streams.size() * PackedStreamBytes);
  for (const StreamTuple &T : Streams) {
    std::uint64_t F, S;
    std::memcpy(&F, &T.footprintKiB, 8);
    std::memcpy(&S, &T.strideBytes, 8);
    putLE(Out, F, 8);
    putLE(Out, S, 8);
    putLE(Out, T.elemBytes, 4);
    putLE(Out, T.access == Access::Private ? 1 : 0, 4);
  }
  return Out;
}

bool unpackStreams(const void *Blob, std::size_t Bytes, StreamTuple *Out, std::size_t MaxStreams,
                   unsigned &N) {
  if (Bytes == 0 || Bytes % PackedStreamBytes != 0)
    return false;
  std::size_t Count = Bytes / PackedStreamBytes;
  if (Count > MaxStreams)
    return false;
  const auto *P = static_cast<const unsigned char *>(Blob);
  for (std::size_t I = 0; I < Count; ++I, P += PackedStreamBytes) {
    std::uint64_t F = getLE(P, 8), S = getLE(P + 8, 8);
    std::memcpy(&Out[I].footprintKiB, &F, 8);
    std::memcpy(&Out[I].strideBytes, &S, 8);
    Out[I].elemBytes = unsigned(getLE(P + 16, 4));
    std::uint64_t A = getLE(P + 20, 4);
    if (A > 1)
      return false;
    Out[I].access = A ? Access::Private : Access::Shared;
  }
  N = unsigned(Count);
  return true;
}

static std::vector<StreamTuple> unpackAll(const void *Blob, std::size_t Bytes,
                                          const std::string &Path, std::int64_t Id) {
  std::vector<StreamTuple> V(Bytes / PackedStreamBytes + 1);
  unsigned N = 0;
  if (!unpackStreams(Blob, Bytes, V.data(), V.size(), N))
    throw InputError(Path, "profile " + std::to_string(Id),
                     "malformed streams blob (run phaseprobe-db check)");
  V.resize(N);
  return V;
}

//===--- SQLite plumbing ------------------------------------------------------===//

static std::string nowIso() {
  std::time_t T = std::time(nullptr);
  std::tm Tm;
  gmtime_r(&T, &Tm);
  char Buf[32];
  std::strftime(Buf, sizeof Buf, "%Y-%m-%dT%H:%M:%SZ", &Tm);
  return Buf;
}

/// A prepared statement, reset on destruction so cached statements can be
/// reused by the next caller.
class Stmt {
public:
  Stmt(sqlite3_stmt *S, const std::string &Path) : S(S), Path(Path) {}
  ~Stmt() {
    sqlite3_reset(S);
    sqlite3_clear_bindings(S);
  }
  Stmt &bind(int I, std::int64_t V) { return check(sqlite3_bind_int64(S, I, V)); }
  Stmt &bind(int I, double V) { return check(sqlite3_bind_double(S, I, V)); }
  Stmt &bind(int I, const std::string &V) {
    return check(sqlite3_bind_text(S, I, V.data(), int(V.size()), SQLITE_TRANSIENT));
  }
  Stmt &bindBlob(int I, const std::string &V) {
    return check(sqlite3_bind_blob(S, I, V.data(), int(V.size()), SQLITE_TRANSIENT));
  }
  Stmt &bindNull(int I) { return check(sqlite3_bind_null(S, I)); }
  template <typename T> Stmt &bindOpt(int I, const std::optional<T> &V) {
    return V ? bind(I, *V) : bindNull(I);
  }
  /// True while there is a row.
  bool step();
  bool isNull(int C) const { return sqlite3_column_type(S, C) == SQLITE_NULL; }
  std::int64_t i64(int C) const { return sqlite3_column_int64(S, C); }
  double dbl(int C) const { return sqlite3_column_double(S, C); }
  std::string text(int C) const {
    const unsigned char *T = sqlite3_column_text(S, C);
    return T ? std::string(reinterpret_cast<const char *>(T),
                           std::size_t(sqlite3_column_bytes(S, C)))
             : std::string();
  }
  std::optional<double> optDbl(int C) const {
    return isNull(C) ? std::nullopt : std::optional<double>(dbl(C));
  }
  sqlite3_stmt *raw() const { return S; }

private:
  Stmt &check(int Rc);
  sqlite3_stmt *S;
  const std::string &Path;
};

namespace {
/// Another process held the lock longer than the busy timeout, or SQLite
/// refused to wait because waiting could deadlock (two connections
/// upgrading their locks at once: it returns SQLITE_BUSY at once then).
class BusyError : public WorkError {
public:
  using WorkError::WorkError;
};
} // namespace

/// Turns an SQLite failure into the error a user can act on.
[[noreturn]] static void fail(sqlite3 *Db, int Rc, const std::string &Path) {
  std::string Msg = Db ? sqlite3_errmsg(Db) : sqlite3_errstr(Rc);
  switch (Rc & 0xff) {
  case SQLITE_NOTADB:
  case SQLITE_CORRUPT:
    throw InputError(Path, "", "not a valid SQLite database (corrupt?): " + Msg);
  case SQLITE_READONLY:
  case SQLITE_CANTOPEN:
  case SQLITE_PERM:
  case SQLITE_AUTH:
    throw InputError(Path, "", "cannot write: " + Msg);
  case SQLITE_CONSTRAINT:
    throw InputError(Path, "", "constraint violated: " + Msg);
  case SQLITE_BUSY:
  case SQLITE_LOCKED:
    throw BusyError(Path + ": database stayed locked by another process: " + Msg);
  default:
    throw WorkError(Path + ": SQLite error: " + Msg);
  }
}

Stmt &Stmt::check(int Rc) {
  if (Rc != SQLITE_OK)
    fail(sqlite3_db_handle(S), Rc, Path);
  return *this;
}

bool Stmt::step() {
  int Rc = sqlite3_step(S);
  if (Rc == SQLITE_ROW)
    return true;
  if (Rc == SQLITE_DONE)
    return false;
  fail(sqlite3_db_handle(S), Rc, Path);
}

struct Nppdb::Impl {
  std::string Path;
  sqlite3 *Db = nullptr;
  bool Writable = false;
  int FileVersion = 0;
  int TxDepth = 0;
  std::map<std::string, sqlite3_stmt *> Cache;

  ~Impl() {
    for (auto &KV : Cache)
      sqlite3_finalize(KV.second);
    if (Db)
      sqlite3_close_v2(Db);
  }

  Stmt prepare(const std::string &Sql) {
    auto It = Cache.find(Sql);
    if (It == Cache.end()) {
      sqlite3_stmt *S = nullptr;
      int Rc = sqlite3_prepare_v3(Db, Sql.c_str(), int(Sql.size() + 1), SQLITE_PREPARE_PERSISTENT,
                                  &S, nullptr);
      if (Rc != SQLITE_OK)
        fail(Db, Rc, Path);
      It = Cache.emplace(Sql, S).first;
    }
    return Stmt(It->second, Path);
  }

  void exec(const char *Sql) {
    char *Err = nullptr;
    int Rc = sqlite3_exec(Db, Sql, nullptr, nullptr, &Err);
    if (Rc != SQLITE_OK) {
      std::string Msg = Err ? Err : sqlite3_errstr(Rc);
      sqlite3_free(Err);
      if ((Rc & 0xff) == SQLITE_NOTADB || (Rc & 0xff) == SQLITE_CORRUPT ||
          (Rc & 0xff) == SQLITE_READONLY || (Rc & 0xff) == SQLITE_BUSY ||
          (Rc & 0xff) == SQLITE_CANTOPEN)
        fail(Db, Rc, Path);
      throw WorkError(Path + ": SQLite error: " + Msg);
    }
  }

  /// Runs \p Body between \p Begin ("BEGIN" or "BEGIN IMMEDIATE") and
  /// COMMIT; on any failure rolls back and rethrows, leaving the file as it
  /// was. (Nppdb::transaction is the public, nestable form.)
  template <class F> void inTransaction(const char *Begin, F &&Body) {
    exec(Begin);
    try {
      Body();
      exec("COMMIT");
    } catch (...) {
      sqlite3_exec(Db, "ROLLBACK", nullptr, nullptr, nullptr);
      throw;
    }
  }

  std::int64_t pragmaInt(const char *Name) {
    Stmt S = prepare(std::string("PRAGMA ") + Name);
    return S.step() ? S.i64(0) : 0;
  }

  void requireWritable() const {
    if (!Writable)
      throw InputError(Path, "", "database was opened read-only");
  }

  std::optional<std::int64_t> nodeId(const std::string &Label) {
    Stmt S = prepare("SELECT id FROM nodes WHERE label = ?1");
    S.bind(1, Label);
    if (S.step())
      return S.i64(0);
    return std::nullopt;
  }

  Profile readProfile(Stmt &S);
};

// Column list shared by every query that builds a full Profile.
static const char *ProfileColumns =
    "p.id, n.label, p.ubench, p.params, p.threads, p.streams, p.time_s, "
    "p.iterations, p.tpi_us, p.time_median, p.time_min, p.time_max, "
    "p.time_stddev, p.time_count, p.tpi_median, p.tpi_min, p.tpi_max, "
    "p.tpi_stddev, p.run_id";

Profile Nppdb::Impl::readProfile(Stmt &S) {
  Profile P;
  P.id = S.i64(0);
  P.node = S.text(1);
  P.ubench = S.text(2);
  try {
    auto J = nlohmann::json::parse(S.text(3));
    for (auto &KV : J.items())
      P.params[KV.key()] =
          KV.value().is_string() ? KV.value().get<std::string>() : KV.value().dump();
  } catch (const nlohmann::json::exception &E) {
    throw InputError(Path, "profile " + std::to_string(P.id),
                     std::string("params is not a JSON object: ") + E.what());
  }
  P.threads = unsigned(S.i64(4));
  P.streams = unpackAll(sqlite3_column_blob(S.raw(), 5),
                        std::size_t(sqlite3_column_bytes(S.raw(), 5)), Path, P.id);
  P.timeS = S.optDbl(6);
  P.iterations = S.optDbl(7);
  P.tpiUs = S.dbl(8);
  if (!S.isNull(13)) {
    Stats T, U;
    T.count = U.count = std::uint64_t(S.i64(13));
    T.mean = P.timeS.value_or(0);
    T.median = S.dbl(9);
    T.min = S.dbl(10);
    T.max = S.dbl(11);
    T.stddev = S.dbl(12);
    U.mean = P.tpiUs;
    U.median = S.dbl(14);
    U.min = S.dbl(15);
    U.max = S.dbl(16);
    U.stddev = S.dbl(17);
    P.timeStats = T;
    P.tpiStats = U;
  }
  return P;
}

//===--- Opening ---------------------------------------------------------------===//

Nppdb::~Nppdb() = default;
const std::string &Nppdb::path() const { return P->Path; }
int Nppdb::fileSchemaVersion() const { return P->FileVersion; }

/// Runs every step of \p Migs above the file's version, each in its own
/// transaction; a failing step leaves the file at the previous version.
static void migrate(Nppdb::Impl &I, const NppdbMigration *Migs) {
  for (const NppdbMigration *M = Migs; M->Sql; ++M) {
    I.inTransaction("BEGIN IMMEDIATE", [&] {
      // Another process may have migrated while we waited for the lock.
      std::int64_t Now = I.pragmaInt("user_version");
      if (Now < M->To) {
        try {
          I.exec(M->Sql);
        } catch (const WorkError &E) {
          throw WorkError(std::string(E.what()) + " (migrating schema " + std::to_string(Now) +
                          " -> " + std::to_string(M->To) + "; the file is unchanged)");
        }
        I.exec(("PRAGMA user_version = " + std::to_string(M->To)).c_str());
      }
    });
  }
}

static std::unique_ptr<Nppdb> openOnce(const std::string &Path, Nppdb::Mode M,
                                       const NppdbMigration *Migs, int Target);

/// Opens with openOnce, again on a busy database for as long as the busy
/// timeout: two processes that create or convert one file at once can
/// meet in a lock upgrade, where SQLite answers busy without waiting
/// (Run_concurrent_exec.test failed so once on CI's load). Each attempt
/// is a fresh connection; a failed one has committed nothing, or whole
/// migration steps only.
static std::unique_ptr<Nppdb> openWith(const std::string &Path, Nppdb::Mode M,
                                       const NppdbMigration *Migs, int Target) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point Give = Clock::now() + std::chrono::seconds(60);
  for (int Try = 0;; ++Try) {
    try {
      return openOnce(Path, M, Migs, Target);
    } catch (const BusyError &) {
      if (Clock::now() > Give)
        throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(5 << std::min(Try, 5)));
    }
  }
}

std::unique_ptr<Nppdb> Nppdb::open(const std::string &Path, Mode M) {
  return openWith(Path, M, NppdbMigrations, SchemaVersion);
}

std::unique_ptr<Nppdb> detail::openAs(const std::string &Path, Nppdb::Mode M,
                                      const std::vector<MigrationStep> &Steps, int Target) {
  std::vector<NppdbMigration> Migs;
  for (const MigrationStep &S : Steps)
    Migs.push_back({S.to, S.sql.c_str()});
  Migs.push_back({0, nullptr});
  return openWith(Path, M, Migs.data(), Target);
}

Nppdb::Nppdb(std::unique_ptr<Impl> I, int) : P(std::move(I)) {}

static std::unique_ptr<Nppdb> openOnce(const std::string &Path, Nppdb::Mode M,
                                       const NppdbMigration *Migs, int Target) {
  using Mode = Nppdb::Mode;
  const int SchemaVersion = Nppdb::SchemaVersion;
  const std::int32_t ApplicationId = Nppdb::ApplicationId;
  struct stat St;
  bool Exists = ::stat(Path.c_str(), &St) == 0;
  if (!Exists && M != Mode::Create)
    throw InputError(Path, "", "no such database");
  if (Exists && S_ISDIR(St.st_mode))
    throw InputError(Path, "", "is a directory, not a database");

  auto I = std::make_unique<Nppdb::Impl>();
  I->Path = Path;
  I->Writable = M != Mode::ReadOnly;
  int Flags = M == Mode::ReadOnly ? SQLITE_OPEN_READONLY
              : M == Mode::Create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                                  : SQLITE_OPEN_READWRITE;
  int Rc = sqlite3_open_v2(Path.c_str(), &I->Db, Flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (Rc != SQLITE_OK) {
    std::string Msg = I->Db ? sqlite3_errmsg(I->Db) : sqlite3_errstr(Rc);
    throw InputError(Path, "", "cannot open database: " + Msg);
  }
  sqlite3_extended_result_codes(I->Db, 1);
  // Concurrent `ubench run` processes queue on the lock rather than fail.
  sqlite3_busy_timeout(I->Db, 60000);

  // The first read of the header tells a non-database file apart. One read
  // transaction, so that the three reads see one state: read apart, a
  // process creating the database beside this one could commit between
  // them (application_id still 0, tables already there: "not an NPPDB";
  // seen once in Run_concurrent_exec.test).
  std::int64_t AppId = 0, Version = 0, Tables = 0;
  I->inTransaction("BEGIN", [&] {
    AppId = I->pragmaInt("application_id");
    Version = I->pragmaInt("user_version");
    Stmt S = I->prepare("SELECT count(*) FROM sqlite_master");
    if (S.step())
      Tables = S.i64(0);
  });
  bool Empty = AppId == 0 && Version == 0 && Tables == 0;
  if (Empty) {
    if (M == Mode::ReadOnly)
      throw InputError(Path, "", "empty file, not an NPPDB");
    // Two processes may create the same database at once: the schema is
    // created under the write lock, by whoever gets it first.
    I->exec("PRAGMA journal_mode = WAL");
    I->inTransaction("BEGIN IMMEDIATE", [&] {
      bool StillEmpty;
      {
        Stmt S = I->prepare("SELECT count(*) FROM sqlite_master");
        StillEmpty = S.step() && S.i64(0) == 0;
      }
      if (StillEmpty) {
        I->exec(NppdbSchemaSql);
        I->exec(("PRAGMA application_id = " + std::to_string(ApplicationId)).c_str());
        I->exec(("PRAGMA user_version = " + std::to_string(SchemaVersion)).c_str());
      }
    });
    AppId = I->pragmaInt("application_id");
    Version = I->pragmaInt("user_version");
  }
  if (AppId != ApplicationId) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)(std::uint32_t)AppId);
    throw InputError(Path, "",
                     std::string("not an NPPDB (SQLite application_id ") + Buf +
                         ", expected 0x50504442)");
  }
  I->FileVersion = int(Version);
  if (Version > Target)
    throw InputError(Path, "",
                     "schema version " + std::to_string(Version) +
                         " is newer than this phaseprobe reads (" + std::to_string(Target) +
                         "); use a newer phaseprobe");
  if (Version < 1)
    throw InputError(Path, "", "invalid schema version " + std::to_string(Version));
  if (Version < Target) {
    if (M == Mode::ReadOnly)
      throw InputError(Path, "",
                       "schema version " + std::to_string(Version) +
                           " is older than this phaseprobe's (" + std::to_string(Target) +
                           "); run `phaseprobe-db upgrade --db " + Path + "`");
    migrate(*I, Migs);
  }
  if (I->Writable)
    I->exec("PRAGMA journal_mode = WAL");
  I->exec("PRAGMA foreign_keys = ON");
  // The matcher scans up to millions of rows: read them through a memory map
  // and a large page cache rather than one pread per page.
  I->exec("PRAGMA mmap_size = 1073741824");
  I->exec("PRAGMA cache_size = -65536");
  return std::unique_ptr<Nppdb>(new Nppdb(std::move(I), 0));
}

int Nppdb::upgrade(const std::string &Path) {
  auto Db = open(Path, Mode::ReadWrite);
  return Db->fileSchemaVersion();
}

//===--- Reading -----------------------------------------------------------===//

std::vector<std::string> Nppdb::nodes() const {
  std::vector<std::string> L;
  Stmt S = P->prepare("SELECT label FROM nodes ORDER BY label");
  while (S.step())
    L.push_back(S.text(0));
  return L;
}

std::optional<NodeInfo> Nppdb::node(const std::string &Label) const {
  Stmt S = P->prepare("SELECT label, hostname, cpu, cores, pus, sockets, numa_nodes, "
                      "l1d_kib, l2_kib, l3_kib, memory_mib FROM nodes WHERE label = ?1");
  S.bind(1, Label);
  if (!S.step())
    return std::nullopt;
  NodeInfo N;
  N.label = S.text(0);
  N.hostname = S.text(1);
  N.cpu = S.text(2);
  N.cores = unsigned(S.i64(3));
  N.pus = unsigned(S.i64(4));
  N.sockets = unsigned(S.i64(5));
  N.numaNodes = unsigned(S.i64(6));
  N.l1dKiB = S.dbl(7);
  N.l2KiB = S.dbl(8);
  N.l3KiB = S.dbl(9);
  N.memoryMiB = S.dbl(10);
  return N;
}

std::vector<unsigned> Nppdb::threadCounts(const std::string &Label) const {
  std::vector<unsigned> T;
  Stmt S = P->prepare("SELECT DISTINCT p.threads FROM profiles p JOIN nodes n ON "
                      "n.id = p.node_id WHERE n.label = ?1 ORDER BY p.threads");
  S.bind(1, Label);
  while (S.step())
    T.push_back(unsigned(S.i64(0)));
  return T;
}

std::size_t Nppdb::profileCount(const std::string &Label) const {
  if (Label.empty()) {
    Stmt S = P->prepare("SELECT count(*) FROM profiles");
    return S.step() ? std::size_t(S.i64(0)) : 0;
  }
  Stmt S = P->prepare("SELECT count(*) FROM profiles p JOIN nodes n ON n.id = "
                      "p.node_id WHERE n.label = ?1");
  S.bind(1, Label);
  return S.step() ? std::size_t(S.i64(0)) : 0;
}

void Nppdb::scan(const ScanFilter &F, const std::function<void(const ProfileView &)> &Fn) const {
  std::optional<std::int64_t> Node = P->nodeId(F.Node);
  if (!Node)
    return;
  std::string Sql = "SELECT id, ubench, threads, streams, tpi_us FROM profiles "
                    "WHERE node_id = ?1 AND threads = ?2 AND n_streams = ?3";
  if (F.FirstFootprintKiB)
    Sql += " AND first_footprint_kib BETWEEN ?4 AND ?5";
  if (F.TpiUs)
    Sql += " AND tpi_us BETWEEN ?6 AND ?7";
  Stmt S = P->prepare(Sql);
  S.bind(1, *Node).bind(2, std::int64_t(F.Threads)).bind(3, std::int64_t(F.NStreams));
  if (F.FirstFootprintKiB)
    S.bind(4, F.FirstFootprintKiB->first).bind(5, F.FirstFootprintKiB->second);
  if (F.TpiUs)
    S.bind(6, F.TpiUs->first).bind(7, F.TpiUs->second);
  // One buffer for all rows: the hot loop allocates nothing.
  std::vector<StreamTuple> Buf(std::max(1u, F.NStreams));
  ProfileView V;
  while (S.step()) {
    sqlite3_stmt *R = S.raw();
    V.Id = sqlite3_column_int64(R, 0);
    const char *Name = reinterpret_cast<const char *>(sqlite3_column_text(R, 1));
    V.UBench = std::string_view(Name ? Name : "", std::size_t(sqlite3_column_bytes(R, 1)));
    V.Threads = unsigned(sqlite3_column_int64(R, 2));
    const void *Blob = sqlite3_column_blob(R, 3);
    std::size_t Bytes = std::size_t(sqlite3_column_bytes(R, 3));
    unsigned N = 0;
    if (!unpackStreams(Blob, Bytes, Buf.data(), Buf.size(), N) || N != F.NStreams)
      throw InputError(P->Path, "profile " + std::to_string(V.Id),
                       "malformed streams blob (run phaseprobe-db check)");
    V.Streams = Buf.data();
    V.NStreams = N;
    V.TpiUs = sqlite3_column_double(R, 4);
    Fn(V);
  }
}

Profile Nppdb::profile(std::int64_t Id) const {
  Stmt S = P->prepare(std::string("SELECT ") + ProfileColumns +
                      " FROM profiles p JOIN nodes n ON n.id = p.node_id WHERE p.id = ?1");
  S.bind(1, Id);
  if (!S.step())
    throw InputError(P->Path, "", "no profile with id " + std::to_string(Id));
  return P->readProfile(S);
}

std::optional<Profile> Nppdb::find(const std::string &Node, const std::string &UBench,
                                   const std::vector<StreamTuple> &Streams,
                                   unsigned Threads) const {
  Stmt S = P->prepare(std::string("SELECT ") + ProfileColumns +
                      " FROM profiles p JOIN nodes n ON n.id = p.node_id WHERE "
                      "n.label = ?1 AND p.ubench = ?2 AND p.threads = ?3 AND "
                      "p.streams = ?4");
  S.bind(1, Node).bind(2, UBench).bind(3, std::int64_t(Threads));
  S.bindBlob(4, packStreams(Streams));
  if (!S.step())
    return std::nullopt;
  return P->readProfile(S);
}

std::optional<std::vector<StreamTuple>> Nppdb::streamsAt(const std::string &Node,
                                                         const std::string &UBench,
                                                         const std::vector<StreamTuple> &Streams,
                                                         unsigned Threads) const {
  // Two steps, each on an index or one pass: the request that measured
  // these streams, then the node's newest profile of that uB and request at
  // the thread count (the latest measurement, as find() would see it).
  Stmt R = P->prepare("SELECT ubench, json_extract(params, '$.requested') FROM profiles "
                      "WHERE streams = ?1 AND (?2 = '' OR ubench = ?2) AND json_valid(params) "
                      "AND json_extract(params, '$.requested') IS NOT NULL LIMIT 1");
  R.bindBlob(1, packStreams(Streams)).bind(2, UBench);
  if (!R.step())
    return std::nullopt;
  std::string UB = R.text(0), Request = R.text(1);
  Stmt S = P->prepare("SELECT q.streams FROM profiles q JOIN nodes n ON n.id = q.node_id "
                      "WHERE n.label = ?1 AND q.ubench = ?2 AND q.threads = ?3 AND json_valid(q.params) "
                      "AND json_extract(q.params, '$.requested') = ?4 ORDER BY q.id DESC LIMIT 1");
  S.bind(1, Node).bind(2, UB).bind(3, std::int64_t(Threads)).bind(4, Request);
  if (!S.step())
    return std::nullopt;
  return unpackAll(sqlite3_column_blob(S.raw(), 0), std::size_t(sqlite3_column_bytes(S.raw(), 0)),
                   P->Path, 0);
}

std::vector<Profile> Nppdb::profiles(const std::string &Node) const {
  std::string Sql =
      std::string("SELECT ") + ProfileColumns + " FROM profiles p JOIN nodes n ON n.id = p.node_id";
  if (!Node.empty())
    Sql += " WHERE n.label = ?1";
  Sql += " ORDER BY n.label, p.ubench, p.threads, p.streams_text, p.id";
  Stmt S = P->prepare(Sql);
  if (!Node.empty())
    S.bind(1, Node);
  std::vector<Profile> V;
  while (S.step())
    V.push_back(P->readProfile(S));
  return V;
}

std::optional<RunInfo> Nppdb::run(std::int64_t RunId) const {
  Stmt S = P->prepare("SELECT id, date, tool_version, compiler, command_line, grid "
                      "FROM runs WHERE id = ?1");
  S.bind(1, RunId);
  if (!S.step())
    return std::nullopt;
  RunInfo R;
  R.id = S.i64(0);
  R.date = S.text(1);
  R.toolVersion = S.text(2);
  R.compiler = S.text(3);
  R.commandLine = S.text(4);
  R.grid = S.text(5);
  return R;
}

std::vector<std::pair<RunInfo, std::size_t>> Nppdb::runs(const std::string &Node) const {
  Stmt S = P->prepare("SELECT r.id, r.date, r.tool_version, r.compiler, r.command_line, "
                      "r.grid, count(*) FROM runs r JOIN profiles p ON p.run_id = r.id "
                      "JOIN nodes n ON n.id = p.node_id WHERE n.label = ?1 "
                      "GROUP BY r.id ORDER BY r.date, r.id");
  S.bind(1, Node);
  std::vector<std::pair<RunInfo, std::size_t>> V;
  while (S.step()) {
    RunInfo R;
    R.id = S.i64(0);
    R.date = S.text(1);
    R.toolVersion = S.text(2);
    R.compiler = S.text(3);
    R.commandLine = S.text(4);
    R.grid = S.text(5);
    V.emplace_back(std::move(R), std::size_t(S.i64(6)));
  }
  return V;
}

//===--- Writing -----------------------------------------------------------===//

void Nppdb::transaction(const std::function<void()> &Body) {
  P->requireWritable();
  bool Outer = P->TxDepth == 0;
  std::string Sp = "pp_sp" + std::to_string(P->TxDepth);
  P->exec(Outer ? "BEGIN IMMEDIATE" : ("SAVEPOINT " + Sp).c_str());
  ++P->TxDepth;
  try {
    Body();
  } catch (...) {
    --P->TxDepth;
    if (Outer)
      sqlite3_exec(P->Db, "ROLLBACK", nullptr, nullptr, nullptr);
    else
      sqlite3_exec(P->Db, ("ROLLBACK TO " + Sp + "; RELEASE " + Sp).c_str(), nullptr, nullptr,
                   nullptr);
    throw;
  }
  --P->TxDepth;
  try {
    P->exec(Outer ? "COMMIT" : ("RELEASE " + Sp).c_str());
  } catch (...) {
    if (Outer)
      sqlite3_exec(P->Db, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

static void bindNodeInfo(Stmt &S, const NodeInfo &N) {
  S.bind(2, N.hostname).bind(3, N.cpu).bind(4, std::int64_t(N.cores));
  S.bind(5, std::int64_t(N.pus)).bind(6, std::int64_t(N.sockets));
  S.bind(7, std::int64_t(N.numaNodes)).bind(8, N.l1dKiB).bind(9, N.l2KiB);
  S.bind(10, N.l3KiB).bind(11, N.memoryMiB);
}

std::int64_t Nppdb::putNode(const NodeInfo &N) {
  P->requireWritable();
  if (N.label.empty())
    throw InputError(P->Path, "", "node label is empty");
  if (auto Id = P->nodeId(N.label)) {
    Stmt S = P->prepare("UPDATE nodes SET hostname = ?2, cpu = ?3, cores = ?4, pus = ?5, "
                        "sockets = ?6, numa_nodes = ?7, l1d_kib = ?8, l2_kib = ?9, "
                        "l3_kib = ?10, memory_mib = ?11 WHERE label = ?1");
    S.bind(1, N.label);
    bindNodeInfo(S, N);
    S.step();
    return *Id;
  }
  Stmt S = P->prepare("INSERT INTO nodes (label, hostname, cpu, cores, pus, sockets, "
                      "numa_nodes, l1d_kib, l2_kib, l3_kib, memory_mib, added) VALUES "
                      "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  S.bind(1, N.label);
  bindNodeInfo(S, N);
  S.bind(12, nowIso());
  S.step();
  return sqlite3_last_insert_rowid(P->Db);
}

std::int64_t Nppdb::ensureNode(const std::string &Label) {
  P->requireWritable();
  if (Label.empty())
    throw InputError(P->Path, "", "node label is empty");
  if (auto Id = P->nodeId(Label))
    return *Id;
  Stmt S = P->prepare("INSERT INTO nodes (label, added) VALUES (?1, ?2)");
  S.bind(1, Label).bind(2, nowIso());
  S.step();
  return sqlite3_last_insert_rowid(P->Db);
}

std::int64_t Nppdb::addRun(RunInfo R) {
  P->requireWritable();
  if (R.date.empty())
    R.date = nowIso();
  if (R.toolVersion.empty())
    R.toolVersion = version();
  Stmt S = P->prepare("INSERT INTO runs (date, tool_version, compiler, command_line, "
                      "grid) VALUES (?1, ?2, ?3, ?4, ?5)");
  S.bind(1, R.date).bind(2, R.toolVersion).bind(3, R.compiler);
  S.bind(4, R.commandLine).bind(5, R.grid);
  S.step();
  return sqlite3_last_insert_rowid(P->Db);
}

std::optional<std::int64_t> Nppdb::existing(const Profile &Pr) const {
  std::optional<std::int64_t> Node = P->nodeId(Pr.node);
  if (!Node)
    return std::nullopt;
  Stmt S = P->prepare("SELECT id FROM profiles WHERE node_id = ?1 AND ubench = ?2 AND "
                      "threads = ?3 AND streams = ?4");
  S.bind(1, *Node).bind(2, Pr.ubench).bind(3, std::int64_t(Pr.threads));
  S.bindBlob(4, packStreams(Pr.streams));
  if (S.step())
    return S.i64(0);
  return std::nullopt;
}

static std::string describe(const Profile &Pr) {
  return Pr.node + "," + Pr.ubench + "," + std::to_string(Pr.threads) + "," +
         formatStreams(Pr.streams);
}

std::int64_t Nppdb::addProfile(const Profile &Pr, std::int64_t RunId, bool Replace) {
  P->requireWritable();
  std::optional<std::int64_t> Node = P->nodeId(Pr.node);
  if (!Node)
    throw InputError(P->Path, "", "no node '" + Pr.node + "'");
  if (Pr.streams.empty())
    throw InputError(P->Path, "", "profile " + Pr.ubench + " has no streams");
  if (Pr.threads == 0)
    throw InputError(P->Path, "", "profile " + Pr.ubench + " has 0 threads");
  if (!(Pr.tpiUs > 0))
    throw InputError(P->Path, "", "profile " + Pr.ubench + " has tpi_us <= 0");
  if (auto Old = existing(Pr)) {
    if (!Replace)
      throw InputError(P->Path, "", "profile " + describe(Pr) + " already exists (use --replace)");
    Stmt D = P->prepare("DELETE FROM profiles WHERE id = ?1");
    D.bind(1, *Old);
    D.step();
  }
  nlohmann::json J = nlohmann::json::object();
  for (auto &KV : Pr.params)
    J[KV.first] = KV.second;
  Stmt S = P->prepare("INSERT INTO profiles (node_id, run_id, ubench, params, threads, n_streams, "
                      "streams, streams_text, first_footprint_kib, time_s, iterations, tpi_us, "
                      "time_median, time_min, time_max, time_stddev, time_count, tpi_median, "
                      "tpi_min, tpi_max, tpi_stddev) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                      "?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)");
  S.bind(1, *Node);
  if (RunId > 0)
    S.bind(2, RunId);
  S.bind(3, Pr.ubench).bind(4, J.dump()).bind(5, std::int64_t(Pr.threads));
  S.bind(6, std::int64_t(Pr.streams.size())).bindBlob(7, packStreams(Pr.streams));
  S.bind(8, formatStreams(Pr.streams)).bind(9, Pr.streams.front().footprintKiB);
  S.bindOpt(10, Pr.timeS).bindOpt(11, Pr.iterations).bind(12, Pr.tpiUs);
  if (Pr.timeStats && Pr.tpiStats) {
    const Stats &T = *Pr.timeStats, &U = *Pr.tpiStats;
    S.bind(13, T.median).bind(14, T.min).bind(15, T.max).bind(16, T.stddev);
    S.bind(17, std::int64_t(T.count));
    S.bind(18, U.median).bind(19, U.min).bind(20, U.max).bind(21, U.stddev);
  }
  S.step();
  return sqlite3_last_insert_rowid(P->Db);
}

std::size_t Nppdb::deleteNode(const std::string &Label) {
  P->requireWritable();
  std::size_t N = 0;
  transaction([&] {
    std::optional<std::int64_t> Id = P->nodeId(Label);
    if (!Id)
      throw InputError(P->Path, "", "no node '" + Label + "'");
    N = profileCount(Label);
    // Only the runs this node's profiles came from may go: a run another
    // process has just started has no profiles yet and must stay.
    std::vector<std::int64_t> Runs;
    {
      Stmt R = P->prepare("SELECT DISTINCT run_id FROM profiles WHERE node_id = ?1 AND "
                          "run_id IS NOT NULL");
      R.bind(1, *Id);
      while (R.step())
        Runs.push_back(R.i64(0));
    }
    Stmt D = P->prepare("DELETE FROM nodes WHERE id = ?1");
    D.bind(1, *Id);
    D.step();
    for (std::int64_t Run : Runs) {
      Stmt E = P->prepare("DELETE FROM runs WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM "
                          "profiles WHERE run_id = ?1)");
      E.bind(1, Run);
      E.step();
    }
  });
  return N;
}

LoadSummary Nppdb::merge(const Nppdb &Other, bool Replace) {
  P->requireWritable();
  LoadSummary Sum;
  transaction([&] {
    for (const std::string &Label : Other.nodes()) {
      std::optional<NodeInfo> Theirs = Other.node(Label);
      std::optional<NodeInfo> Ours = node(Label);
      if (!Ours) {
        ++Sum.nodesAdded;
        putNode(*Theirs);
      } else if (Ours->hostname.empty() && Ours->cpu.empty() && Ours->cores == 0) {
        putNode(*Theirs); // ours is label-only: take the description
      }
    }
    std::map<std::int64_t, std::int64_t> RunMap;
    Stmt S = Other.P->prepare(std::string("SELECT ") + ProfileColumns +
                              " FROM profiles p JOIN nodes n ON n.id = p.node_id "
                              "ORDER BY p.id");
    while (S.step()) {
      Profile Pr = Other.P->readProfile(S);
      std::int64_t OtherRun = S.isNull(18) ? 0 : S.i64(18);
      std::int64_t RunId = 0;
      if (OtherRun) {
        auto It = RunMap.find(OtherRun);
        if (It == RunMap.end()) {
          std::optional<RunInfo> R = Other.run(OtherRun);
          It = RunMap.emplace(OtherRun, R ? addRun(*R) : 0).first;
        }
        RunId = It->second;
      }
      bool Clash = existing(Pr).has_value();
      if (Clash && !Replace)
        throw InputError(Other.path(), "profile " + std::to_string(Pr.id),
                         describe(Pr) + " already exists in " + P->Path +
                             " (use --replace); nothing merged");
      addProfile(Pr, RunId, Replace);
      ++(Clash ? Sum.profilesReplaced : Sum.profilesAdded);
    }
  });
  return Sum;
}

//===--- Maintenance ---------------------------------------------------------===//

std::vector<std::string> Nppdb::check() const {
  std::vector<std::string> Problems;
  {
    Stmt S = P->prepare("PRAGMA integrity_check");
    while (S.step()) {
      std::string T = S.text(0);
      if (T != "ok")
        Problems.push_back("integrity: " + T);
    }
  }
  {
    Stmt S = P->prepare("PRAGMA foreign_key_check");
    while (S.step())
      Problems.push_back("foreign key: table " + S.text(0) + " row " + std::to_string(S.i64(1)) +
                         " points at a missing " + S.text(2));
  }
  if (P->pragmaInt("application_id") != ApplicationId)
    Problems.push_back("application_id is not the NPPDB's");
  if (P->pragmaInt("user_version") != SchemaVersion)
    Problems.push_back("schema version is " + std::to_string(P->pragmaInt("user_version")));
  Stmt S = P->prepare("SELECT id, n_streams, streams, streams_text, first_footprint_kib, "
                      "params, tpi_us FROM profiles ORDER BY id");
  std::vector<StreamTuple> Buf(64);
  while (S.step()) {
    std::int64_t Id = S.i64(0);
    std::string Where = "profile " + std::to_string(Id) + ": ";
    unsigned N = 0;
    if (!unpackStreams(sqlite3_column_blob(S.raw(), 2),
                       std::size_t(sqlite3_column_bytes(S.raw(), 2)), Buf.data(), Buf.size(), N)) {
      Problems.push_back(Where + "streams blob does not decode");
      continue;
    }
    std::vector<StreamTuple> V(Buf.begin(), Buf.begin() + N);
    if (std::int64_t(N) != S.i64(1))
      Problems.push_back(Where + "n_streams " + std::to_string(S.i64(1)) + " but the blob holds " +
                         std::to_string(N));
    if (formatStreams(V) != S.text(3))
      Problems.push_back(Where + "streams_text '" + S.text(3) + "' differs from the blob");
    if (S.dbl(4) != V.front().footprintKiB)
      Problems.push_back(Where + "first_footprint_kib differs from the blob");
    if (!nlohmann::json::accept(S.text(5)))
      Problems.push_back(Where + "params is not JSON");
    if (!(S.dbl(6) > 0))
      Problems.push_back(Where + "tpi_us is not positive");
  }
  return Problems;
}

} // namespace phaseprobe
