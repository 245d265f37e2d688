//===- node_info.cpp - Description of the machine we run on ---------------===//
//
// hwloc rather than /proc parsing: it knows caches, packages and NUMA nodes
// on every Linux flavour. A failure of hwloc still yields a valid "node"
// object with what is known (hostname, label), so the phase file is written.
//
//===----------------------------------------------------------------------===//
#include "node_info.h"

#include <cstdlib>
#include <cstring>
#include <hwloc.h>
#include <unistd.h>

namespace __phaseprobe {
namespace {

// Size in KiB of the first cache of \p Type at \p Depth (0 when absent).
unsigned long cacheKiB(hwloc_topology_t Topo, hwloc_obj_type_t Type) {
  hwloc_obj_t O = hwloc_get_next_obj_by_type(Topo, Type, nullptr);
  if (!O || !O->attr)
    return 0;
  return static_cast<unsigned long>(O->attr->cache.size / 1024);
}

} // namespace

void writeNodeInfo(JsonWriter &W) {
  char Host[256] = "unknown";
  if (gethostname(Host, sizeof Host - 1) != 0)
    strcpy(Host, "unknown");
  Host[sizeof Host - 1] = '\0';
  const char *Label = getenv("PHASEPROBE_NODE");
  if (!Label || !*Label)
    Label = Host;

  W.beginObject();
  W.key("label");
  W.string(Label);
  W.key("hostname");
  W.string(Host);

  hwloc_topology_t Topo;
  if (hwloc_topology_init(&Topo) != 0)
    return W.endObject();
  if (hwloc_topology_load(Topo) != 0) {
    hwloc_topology_destroy(Topo);
    return W.endObject();
  }
  const char *Cpu = nullptr;
  if (hwloc_obj_t Pkg = hwloc_get_next_obj_by_type(Topo, HWLOC_OBJ_PACKAGE,
                                                   nullptr))
    Cpu = hwloc_obj_get_info_by_name(Pkg, "CPUModel");
  W.key("cpu");
  W.string(Cpu ? Cpu : "unknown");
  W.key("cores");
  W.integer(hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_CORE));
  W.key("pus");
  W.integer(hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_PU));
  W.key("packages");
  W.integer(hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_PACKAGE));
  W.key("numa_nodes");
  W.integer(hwloc_get_nbobjs_by_type(Topo, HWLOC_OBJ_NUMANODE));
  W.key("caches_kib");
  W.beginObject();
  W.key("l1d");
  W.unsignedInteger(cacheKiB(Topo, HWLOC_OBJ_L1CACHE));
  W.key("l2");
  W.unsignedInteger(cacheKiB(Topo, HWLOC_OBJ_L2CACHE));
  W.key("l3");
  W.unsignedInteger(cacheKiB(Topo, HWLOC_OBJ_L3CACHE));
  W.endObject();
  hwloc_uint64_t Mem = 0;
  for (hwloc_obj_t N = hwloc_get_next_obj_by_type(Topo, HWLOC_OBJ_NUMANODE,
                                                  nullptr);
       N; N = hwloc_get_next_obj_by_type(Topo, HWLOC_OBJ_NUMANODE, N))
    Mem += N->attr ? N->attr->numanode.local_memory : 0;
  W.key("memory_mib");
  W.unsignedInteger(static_cast<unsigned long>(Mem / (1024 * 1024)));
  hwloc_topology_destroy(Topo);
  W.endObject();
}

} // namespace __phaseprobe
