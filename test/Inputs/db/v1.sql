-- An NPPDB of schema version 1 (the first), made by phaseprobe 0.1.0 with
-- `phaseprobe-db import` of profiles.csv and dumped with `sqlite3 F .dump`
-- plus its two header pragmas. Tests rebuild it with `sqlite3 F < v1.sql` to
-- check that every later phaseprobe opens, upgrades and reads version-1
-- files. Never edit it: add vN.sql when schema version N appears.
PRAGMA application_id = 1347437634;
PRAGMA user_version = 1;
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
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
INSERT INTO nodes VALUES(1,'bn','host1','AMD EPYC',2,2,1,1,32.0,1024.0,32768.0,4826.0,'2026-11-22T02:10:00Z');
INSERT INTO nodes VALUES(2,'tn1',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-22T02:10:00Z');
INSERT INTO nodes VALUES(3,'tn2',NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,'2026-11-22T02:10:00Z');
CREATE TABLE runs (
  id           INTEGER PRIMARY KEY, -- row id, referenced by profiles.run_id
  date         TEXT NOT NULL,       -- ISO 8601 UTC start of the run
  tool_version TEXT NOT NULL,       -- phaseprobe version that wrote it
  compiler     TEXT NOT NULL DEFAULT '', -- compiler + flags of the uBs
  command_line TEXT NOT NULL DEFAULT '', -- the command that produced the run
  grid         TEXT NOT NULL DEFAULT ''  -- quick / default / full / params:FILE / import:FILE
);
INSERT INTO runs VALUES(1,'2026-11-22T02:10:00Z','0.1.0','','phaseprobe-db import --db v1.sqlite profiles.csv','import:profiles.csv');
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
INSERT INTO profiles VALUES(1,1,1,'mbw1cX','{}',4,1,X'0000000080fece4000000000004cdd400800000000000000','15869:30000:8:shared',15869.0,NULL,NULL,0.012420000000000000484,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO profiles VALUES(2,1,1,'mbw1c','{}',4,1,X'000000000078d040000000000040df400800000000000000','16864:32000:8:shared',16864.0,NULL,NULL,0.010059999999999999498,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO profiles VALUES(3,1,1,'mbw1hc','{}',4,1,X'0000000000c4cf40000000000040df400800000000000000','16264:32000:8:shared',16264.0,NULL,NULL,0.12453999999999999792,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO profiles VALUES(4,1,1,'mbwXA2hc','{}',4,2,X'000000008080ce40000000000040df400800000000000000000000000068a84000000000000020400800000000000000','15617:32000:8:shared;3124:8:8:shared',15617.0,3.9599999999999999644,300000000.0,0.013159999999999999822,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO profiles VALUES(5,2,1,'mbwXA2hc','{}',4,2,X'000000008080ce40000000000040df400800000000000000000000000068a84000000000000020400800000000000000','15617:32000:8:shared;3124:8:8:shared',15617.0,NULL,NULL,0.01315000000000000023,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
INSERT INTO profiles VALUES(6,3,1,'mbwXA2hc','{}',4,2,X'000000008080ce40000000000040df400800000000000000000000000068a84000000000000020400800000000000000','15617:32000:8:shared;3124:8:8:shared',15617.0,NULL,NULL,0.01148000000000000062,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL,NULL);
CREATE INDEX profiles_by_footprint
  ON profiles (node_id, threads, n_streams, first_footprint_kib, tpi_us, ubench, streams);
CREATE INDEX profiles_by_tpi
  ON profiles (node_id, threads, n_streams, tpi_us, first_footprint_kib, ubench, streams);
CREATE INDEX profiles_by_run ON profiles (run_id);
COMMIT;
