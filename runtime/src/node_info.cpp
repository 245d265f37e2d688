//===- node_info.cpp - Description of the machine we run on ---------------===//
//
// hwloc rather than /proc parsing: it knows caches, packages and NUMA nodes
// on every Linux flavour. A failure of hwloc still yields a valid "node"
// object (zeros, "unknown") so the phase file is written. memory_mib is the
// memory hwloc attributes to NUMA nodes, i.e. what the OS can use.
//
//===----------------------------------------------------------------------===//
#include "node_info.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <hwloc.h>
#include <pthread.h>
#include <unistd.h>

namespace __phaseprobe {
namespace {

// Size in KiB of the first cache of \p Type (0 when absent).
unsigned long cacheKiB(hwloc_topology_t Topo, hwloc_obj_type_t Type) {
  hwloc_obj_t O = hwloc_get_next_obj_by_type(Topo, Type, nullptr);
  if (!O || !O->attr)
    return 0;
  return static_cast<unsigned long>(O->attr->cache.size / 1024);
}

NodeFacts Facts;
pthread_once_t FactsOnce = PTHREAD_ONCE_INIT;

void discover() {
  // hwloc loads its plugins (XML via libxml2 and ICU, PCI, OpenCL, GL) at
  // init: tens of milliseconds for nothing we report. Point it at no plugin
  // directory unless the user chose one, and keep only the object types we
  // describe.
  bool OwnPluginPath = getenv("HWLOC_PLUGINS_PATH") == nullptr;
  if (OwnPluginPath)
    setenv("HWLOC_PLUGINS_PATH", "/nonexistent/phaseprobe-no-hwloc-plugins", 1);
  hwloc_topology_t Topo;
  bool Loaded = false;
  if (hwloc_topology_init(&Topo) == 0) {
    hwloc_topology_set_io_types_filter(Topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_icache_types_filter(Topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    hwloc_topology_set_type_filter(Topo, HWLOC_OBJ_MISC, HWLOC_TYPE_FILTER_KEEP_NONE);
    Loaded = hwloc_topology_load(Topo) == 0;
    if (!Loaded)
      hwloc_topology_destroy(Topo);
  }
  if (OwnPluginPath)
    unsetenv("HWLOC_PLUGINS_PATH");
  if (!Loaded)
    return;
  if (hwloc_obj_t Pkg = hwloc_get_next_obj_by_type(Topo, HWLOC_OBJ_PACKAGE, nullptr))
    if (const char *Model = hwloc_obj_get_info_by_name(Pkg, "CPUModel"))
      snprintf(Facts.Cpu, sizeof Facts.Cpu, "%s", Model);
  Facts.Cores = hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_CORE);
  Facts.Pus = hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_PU);
  Facts.Packages = hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_PACKAGE);
  Facts.NumaNodes = hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_NUMANODE);
  Facts.L1dKiB = cacheKiB(Topo, HWLOC_OBJ_L1CACHE);
  Facts.L2KiB = cacheKiB(Topo, HWLOC_OBJ_L2CACHE);
  Facts.L3KiB = cacheKiB(Topo, HWLOC_OBJ_L3CACHE);
  hwloc_uint64_t Mem = 0;
  for (hwloc_obj_t N = hwloc_get_next_obj_by_type(Topo, HWLOC_OBJ_NUMANODE, nullptr); N;
       N = hwloc_get_next_obj_by_type(Topo, HWLOC_OBJ_NUMANODE, N))
    Mem += N->attr ? N->attr->numanode.local_memory : 0;
  Facts.MemoryMiB = static_cast<unsigned long>(Mem / (1024 * 1024));
  Facts.Known = true;
  hwloc_topology_destroy(Topo);
}

} // namespace

const NodeFacts &nodeFacts() {
  pthread_once(&FactsOnce, discover);
  return Facts;
}

void writeNodeInfo(JsonWriter &W) {
  char Host[256] = "unknown";
  if (gethostname(Host, sizeof Host - 1) != 0)
    strcpy(Host, "unknown");
  Host[sizeof Host - 1] = '\0';
  const char *Label = getenv("PHASEPROBE_NODE");
  if (!Label || !*Label)
    Label = Host;
  const NodeFacts &F = nodeFacts();

  W.beginObject();
  W.key("label");
  W.string(Label);
  W.key("hostname");
  W.string(Host);
  W.key("cpu");
  W.string(F.Cpu);
  W.key("cores");
  W.integer(F.Cores);
  W.key("pus");
  W.integer(F.Pus);
  W.key("packages");
  W.integer(F.Packages);
  W.key("numa_nodes");
  W.integer(F.NumaNodes);
  W.key("caches_kib");
  W.beginObject();
  W.key("l1d");
  W.unsignedInteger(F.L1dKiB);
  W.key("l2");
  W.unsignedInteger(F.L2KiB);
  W.key("l3");
  W.unsignedInteger(F.L3KiB);
  W.endObject();
  W.key("memory_mib");
  W.unsignedInteger(F.MemoryMiB);
  W.endObject();
}

} // namespace __phaseprobe
