-- phaseprobe NPPDB schema, version 1 (PRAGMA user_version = 1).
--
-- The node performance profile database of METHOD.md, "Stage 1". This file is
-- the whole schema of a fresh database; it is embedded into phaseprobe_core at
-- build time (core/sql/embed.cmake) and run once, inside one transaction, when
-- `Nppdb::open(..., Mode::Create)` finds an empty file. The code also sets
-- PRAGMA application_id = 0x50504442 ("PPDB") and PRAGMA user_version.
--
-- Older files are brought to this version by the numbered migrations in
-- core/sql/migrations/ (vN.sql takes version N-1 to N), each in its own
-- transaction; a change here always comes with a new migration file.
--
-- Authoritative data: nodes, runs, profiles. Nothing here is derived from
-- another table except the columns marked "derived", which the code keeps
-- consistent and `phaseprobe-db check` verifies.

-- A node: one machine design. Label-only rows (every other column NULL) come
-- from CSV imports of nodes that were never probed by phaseprobe-ubench.
CREATE TABLE nodes (
  id          INTEGER PRIMARY KEY,  -- row id, referenced by profiles.node_id
  label       TEXT NOT NULL UNIQUE, -- the user's name for the node ("bn", "tn1")
  hostname    TEXT,                 -- host the description was read on
  cpu         TEXT,                 -- CPU model string (hwloc CPUModel)
  cores       INTEGER,              -- physical cores (hwloc CORE objects)
  pus         INTEGER,              -- hardware threads (hwloc PU objects)
  sockets     INTEGER,              -- processor packages
  numa_nodes  INTEGER,              -- NUMA nodes
  l1d_kib     REAL,                 -- L1 data cache of one core, KiB
  l2_kib      REAL,                 -- L2 cache of one core, KiB
  l3_kib      REAL,                 -- largest L3 cache, KiB (0: none)
  memory_mib  REAL,                 -- total main memory, MiB
  added       TEXT NOT NULL         -- ISO 8601 UTC time the row was created
);

-- A run: one measurement campaign or load (ubench run, CSV import, merge).
CREATE TABLE runs (
  id           INTEGER PRIMARY KEY, -- row id, referenced by profiles.run_id
  date         TEXT NOT NULL,       -- ISO 8601 UTC start of the run
  tool_version TEXT NOT NULL,       -- phaseprobe version that wrote it
  compiler     TEXT NOT NULL DEFAULT '', -- compiler + flags of the uBs
  command_line TEXT NOT NULL DEFAULT '', -- the command that produced the run
  grid         TEXT NOT NULL DEFAULT ''  -- quick / default / full / params:FILE / import:FILE
);

-- A performance profile: one uB configuration measured on one node.
CREATE TABLE profiles (
  id                  INTEGER PRIMARY KEY, -- row id (Profile::id)
  node_id             INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE, -- measured on
  run_id              INTEGER REFERENCES runs(id) ON DELETE SET NULL, -- produced by
  ubench              TEXT NOT NULL,       -- uB name ("mbw1c", "mbw2hc", ...)
  params              TEXT NOT NULL DEFAULT '{}', -- JSON object of string values: op, type, pattern, placement, ...
  threads             INTEGER NOT NULL CHECK (threads > 0), -- OpenMP thread count
  n_streams           INTEGER NOT NULL CHECK (n_streams > 0), -- derived: streams in the blob
  streams             BLOB NOT NULL,       -- packed stream tuples, 24 bytes each: f64 footprint_kib, f64 stride_bytes, u32 elem_bytes, u32 access (0 shared, 1 private), little endian
  streams_text        TEXT NOT NULL,       -- derived: the same streams in CSV notation "k:s:e:access;..."
  first_footprint_kib REAL NOT NULL,       -- derived: footprint of the first stream (matcher's range filter)
  time_s              REAL,                -- mean time of one repetition, seconds (NULL: unknown)
  iterations          REAL,                -- iterations of one repetition, slowest thread (NULL: unknown)
  tpi_us              REAL NOT NULL CHECK (tpi_us > 0), -- mean time per iteration, microseconds
  time_median         REAL,                -- median repetition time, s
  time_min            REAL,                -- fastest repetition, s
  time_max            REAL,                -- slowest repetition, s
  time_stddev         REAL,                -- sample standard deviation of the repetition time, s
  time_count          INTEGER,             -- repetitions measured (NULL: statistics unknown)
  tpi_median          REAL,                -- median time per iteration, us
  tpi_min             REAL,                -- smallest time per iteration, us
  tpi_max             REAL,                -- largest time per iteration, us
  tpi_stddev          REAL,                -- sample standard deviation of the tpi, us
  UNIQUE (node_id, ubench, threads, streams) -- the profile key of CONTRACTS.md
);

-- The matcher's two access paths (Nppdb::scan): all profiles of a node with a
-- thread count and a stream count, optionally narrowed by a range on the first
-- footprint or on the tpi. Both are covering (they carry every column scan
-- reads: ubench, streams, tpi, the row id), so a scan reads one index in key
-- order and never jumps into the table: 10^6 profiles in well under a second
-- instead of several (bench/ubench/scan_bench.cpp).
CREATE INDEX profiles_by_footprint
  ON profiles (node_id, threads, n_streams, first_footprint_kib, tpi_us, ubench, streams);
CREATE INDEX profiles_by_tpi
  ON profiles (node_id, threads, n_streams, tpi_us, first_footprint_kib, ubench, streams);
-- Deleting runs and nodes, and finding a run's profiles.
CREATE INDEX profiles_by_run ON profiles (run_id);
