//===- phaseprobe/nppdb.h - The node performance profile database -*- C++ -*-===//
//
// The NPPDB (METHOD.md, "Stage 1"): every node's hardware description and the
// performance profiles of the uBs measured on it, in one SQLite file whose
// schema lives in core/sql/schema.sql. The file says what it is (PRAGMA
// application_id) and which schema it has (PRAGMA user_version); older files
// are upgraded by explicit, transactional migrations and never silently.
//
// Readers (matcher, estimator) open it ReadOnly and use scan() for the hot
// loop: rows are decoded into a reused buffer, so scanning 10^6 profiles
// allocates nothing per row. Writers (phaseprobe-ubench, phaseprobe-db) open
// it ReadWrite/Create; the database runs in WAL mode with a busy timeout so
// several writers can share one file, and every multi-row change happens in a
// single transaction (all or nothing).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "phaseprobe/model.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace phaseprobe {

/// Metadata of one measurement campaign (one `phaseprobe-ubench run`, one CSV
/// import, ...). Every profile points at the run that produced it.
struct RunInfo {
  std::int64_t id = 0;     ///< database row id; 0 when not stored
  std::string date;        ///< ISO 8601 UTC; filled with "now" when empty
  std::string toolVersion; ///< phaseprobe version; filled when empty
  std::string compiler;    ///< compiler of the uBs ("clang 14.0.6 -O2 -fopenmp")
  std::string commandLine; ///< how the run was started
  std::string grid;        ///< "quick", "default", "full", "params:FILE", "import"
};

/// What merge() and importProfiles() did.
struct LoadSummary {
  std::size_t nodesAdded = 0;
  std::size_t profilesAdded = 0;
  std::size_t profilesReplaced = 0;
};

class Nppdb {
public:
  enum class Mode {
    ReadOnly,  ///< never writes; an older schema is an error ("run upgrade")
    ReadWrite, ///< the file must exist; an older schema is migrated
    Create     ///< ReadWrite, creating an empty database when missing
  };

  /// The schema version this build reads and writes (PRAGMA user_version).
  static constexpr int SchemaVersion = 1;
  /// PRAGMA application_id of every NPPDB: "PPDB" in ASCII.
  static constexpr std::int32_t ApplicationId = 0x50504442;

  /// Opens \p Path. Throws InputError(Path, "", ...) when the file is missing
  /// in ReadOnly/ReadWrite mode ("no such database" — one is never created by
  /// accident), is not SQLite or is corrupt, is SQLite but not an NPPDB, has
  /// a schema newer than this tool, or has an older schema in ReadOnly mode
  /// (the message says to run `phaseprobe-db upgrade`).
  static std::unique_ptr<Nppdb> open(const std::string &Path, Mode M);

  ~Nppdb();
  Nppdb(const Nppdb &) = delete;
  Nppdb &operator=(const Nppdb &) = delete;

  const std::string &path() const;

  //===--- Reading ------------------------------------------------------===//

  /// Node labels, sorted.
  std::vector<std::string> nodes() const;
  std::optional<NodeInfo> node(const std::string &Label) const;
  /// The distinct thread counts with profiles on \p Label, ascending.
  std::vector<unsigned> threadCounts(const std::string &Label) const;
  /// Number of profiles, of one node or (empty label) of all.
  std::size_t profileCount(const std::string &Label = "") const;

  /// One row of scan(): valid only during the callback. Streams points into a
  /// buffer reused for the next row.
  struct ProfileView {
    std::int64_t Id;
    std::string_view UBench;
    unsigned Threads;
    const StreamTuple *Streams;
    unsigned NStreams;
    double TpiUs;
  };
  /// Which rows scan() visits: those of Node with exactly NStreams streams and
  /// Threads threads; the optional inclusive ranges on tpi_us and on the FIRST
  /// stream's footprint_kib are evaluated in SQL on an index.
  struct ScanFilter {
    std::string Node;
    unsigned Threads = 0;
    unsigned NStreams = 0;
    std::optional<std::pair<double, double>> TpiUs, FirstFootprintKiB;
  };
  /// Calls \p Fn for every matching profile. Rows come in the order of the
  /// covering index used (first footprint, or tpi when only a tpi range is
  /// given; then row id): deterministic, but not id order. An unknown node
  /// visits nothing.
  void scan(const ScanFilter &F, const std::function<void(const ProfileView &)> &Fn) const;

  /// The full record of profile \p Id; throws InputError when there is none.
  Profile profile(std::int64_t Id) const;

  /// The same uB configuration on another node: same ubench name, same
  /// streams (exact tuple equality), same thread count. Used by the estimator.
  std::optional<Profile> find(const std::string &Node, const std::string &UBench,
                              const std::vector<StreamTuple> &Streams, unsigned Threads) const;

  /// The streams \p Node's profiles at \p Threads measured for the request
  /// that measured exactly \p Streams somewhere in the database (params
  /// "requested", any node, any thread count; of uB \p UBench, or any uB
  /// when empty). The uB kernels round each stream to whole elements per
  /// thread (random streams to a power of two, windowed ones to whole
  /// windows), so one request measures other streams at another thread
  /// count: 10219.921875 KiB at 2 threads is 10219.875 KiB at 16. None where
  /// no profile with \p Streams records its request or \p Node has none.
  std::optional<std::vector<StreamTuple>> streamsAt(const std::string &Node,
                                                    const std::string &UBench,
                                                    const std::vector<StreamTuple> &Streams,
                                                    unsigned Threads) const;

  /// All profiles of \p Node (every node when empty), ordered by node, ubench,
  /// threads, streams: the order of `phaseprobe-db export`.
  std::vector<Profile> profiles(const std::string &Node = "") const;

  /// The run a profile came from.
  std::optional<RunInfo> run(std::int64_t RunId) const;
  /// The runs that produced profiles of \p Node, oldest first, each with the
  /// number of that node's profiles it holds now.
  std::vector<std::pair<RunInfo, std::size_t>> runs(const std::string &Node) const;

  //===--- Writing (ReadWrite / Create only) -----------------------------===//

  /// Runs \p Body in one write transaction (BEGIN IMMEDIATE, so concurrent
  /// writers queue on the busy timeout instead of failing): committed when
  /// Body returns, rolled back when it throws. Nested calls join the outer
  /// transaction through a savepoint.
  void transaction(const std::function<void()> &Body);

  /// Inserts node \p N, or updates the hardware description of an existing
  /// node with the same label. Returns the node's row id.
  std::int64_t putNode(const NodeInfo &N);
  /// Creates node \p Label with only its label if it does not exist yet.
  std::int64_t ensureNode(const std::string &Label);

  /// Stores run metadata; fills date and tool version when empty.
  std::int64_t addRun(RunInfo R);

  /// The id of the profile with the same key (node, ubench, threads,
  /// streams), if one exists.
  std::optional<std::int64_t> existing(const Profile &P) const;

  /// Stores \p P (its node must exist: ensureNode()) under run \p RunId.
  /// A profile with the same key is replaced when \p Replace, else this
  /// throws InputError. Returns the new row id; sets nothing in P.
  std::int64_t addProfile(const Profile &P, std::int64_t RunId, bool Replace);

  /// Deletes a node and all its profiles (runs left without profiles go
  /// too). Returns the number of profiles deleted; throws InputError when
  /// the node does not exist.
  std::size_t deleteNode(const std::string &Label);

  /// Copies every node, run and profile of \p Other into this database in
  /// one transaction. Profile clashes throw InputError naming the first one
  /// (nothing is copied) unless \p Replace. Node descriptions present here
  /// are kept; label-only nodes here take the other's description.
  LoadSummary merge(const Nppdb &Other, bool Replace);

  //===--- Maintenance -----------------------------------------------------===//

  /// Problems found by SQLite's integrity check, the foreign-key check and
  /// the NPPDB's own invariants (stream blobs that decode, n_streams and
  /// first_footprint_kib consistent with them). Empty when healthy.
  std::vector<std::string> check() const;

  /// The schema version of the file on disk when it was opened.
  int fileSchemaVersion() const;

  /// Migrates \p Path to SchemaVersion (each step its own transaction).
  /// Returns the version it had. Throws like open().
  static int upgrade(const std::string &Path);

  /// The schema DDL this build creates (core/sql/schema.sql).
  static const char *schemaSql();

  struct Impl;
  /// For the implementation only (the constructor openers use).
  Nppdb(std::unique_ptr<Impl> I, int);

private:
  std::unique_ptr<Impl> P;
};

namespace detail {
/// One schema step for openAs(): SQL that takes version to-1 to \p to.
struct MigrationStep {
  int to;
  std::string sql;
};
/// Test hook for the migration machinery, not for tools: Nppdb::open as if
/// this build's schema were version \p Target, reached by \p Steps. The real
/// steps are core/sql/migrations/vN.sql, run by Nppdb::open and upgrade.
std::unique_ptr<Nppdb> openAs(const std::string &Path, Nppdb::Mode M,
                              const std::vector<MigrationStep> &Steps, int Target);
} // namespace detail

/// The packed form of a stream list stored in profiles.streams: per stream
/// footprint_kib (f64), stride_bytes (f64), elem_bytes (u32), access (u32,
/// 0 shared, 1 private), little endian, 24 bytes per stream. Exposed for
/// tests and tools that inspect the database directly.
std::string packStreams(const std::vector<StreamTuple> &Streams);
/// Decodes \p N streams into \p Out; false when the blob is malformed.
bool unpackStreams(const void *Blob, std::size_t Bytes, StreamTuple *Out, std::size_t MaxStreams,
                   unsigned &N);

} // namespace phaseprobe
