//===- nppdb_source.cpp - The base node's profiles from an NPPDB ----------===//
//
// Kept in its own file so that code using only VectorProfileSource (unit
// tests) does not pull the SQLite layer in from the static library.
//
//===----------------------------------------------------------------------===//
#include "phaseprobe/matcher.h"
#include "phaseprobe/nppdb.h"

namespace phaseprobe {

NppdbProfileSource::NppdbProfileSource(const Nppdb &Db, std::string Node)
    : Db(Db), Node(std::move(Node)) {}

void NppdbProfileSource::scan(const ScanRequest &R,
                              const std::function<void(const ProfileRef &)> &Fn) const {
  Nppdb::ScanFilter F;
  F.Node = Node;
  F.Threads = R.threads;
  F.NStreams = R.nStreams;
  F.TpiUs = R.tpiUs;
  F.FirstFootprintKiB = R.firstFootprintKiB;
  ProfileRef Ref;
  Db.scan(F, [&](const Nppdb::ProfileView &V) {
    Ref.id = V.Id;
    Ref.ubench = V.UBench;
    Ref.threads = V.Threads;
    Ref.streams = V.Streams;
    Ref.nStreams = V.NStreams;
    Ref.tpiUs = V.TpiUs;
    Fn(Ref);
  });
}

} // namespace phaseprobe
