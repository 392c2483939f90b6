#include "workloads/fio/fio_no_meaning.h"

namespace storlab::fio {
namespace {

struct Why {
  std::string_view name;
  std::string_view why;
};

// fio 3.33's engines (fio --enghelp, engines/*.c) that do no block I/O on a
// local file or device: they talk to a network service, a cluster, memory
// or the CPU, or only time a metadata call, and a simulated disk stack has
// nothing for them to drive.
constexpr Why kEngines[] = {
    {"cpuio", "burns host CPU cycles, does no I/O"},
    {"exec", "runs an external program, does no I/O"},
    {"net", "network I/O over TCP/UDP sockets, no storage stack"},
    {"netsplice", "network I/O over TCP/UDP sockets, no storage stack"},
    {"rdma", "RDMA verbs over an InfiniBand/RoCE network, no storage stack"},
    {"librpma_apm_client", "RDMA to remote persistent memory (librpma), no storage stack"},
    {"librpma_apm_server", "RDMA to remote persistent memory (librpma), no storage stack"},
    {"librpma_gpspm_client", "RDMA to remote persistent memory (librpma), no storage stack"},
    {"librpma_gpspm_server", "RDMA to remote persistent memory (librpma), no storage stack"},
    {"rados", "Ceph RADOS objects over the network, no local device"},
    {"rbd", "Ceph RADOS block device over the network, no local device"},
    {"gfapi", "GlusterFS volume over the network (libgfapi), no local device"},
    {"gfapi_async", "GlusterFS volume over the network (libgfapi), no local device"},
    {"libhdfs", "HDFS cluster over the network, no local device"},
    {"dfs", "DAOS file system over the network, no local device"},
    {"http", "HTTP objects (S3, Swift, WebDAV) over the network, no local device"},
    {"nfs", "libnfs: a user-space NFS client of a network server, no local device"},
    {"nbd", "libnbd: a client of a network NBD server (storlab serves NBD in real time)"},
    {"libiscsi", "an iSCSI target over the network, no local device"},
    {"dev-dax", "device DAX: loads and stores to persistent memory, no block I/O"},
    {"libpmem", "persistent memory through DAX loads and stores, no block I/O"},
    {"pmemblk", "persistent memory through libpmemblk, no block I/O"},
    {"libcufile", "GPUDirect Storage into GPU memory (cuFile), no GPU here"},
    {"ime", "DDN IME burst buffer client, no local device"},
    {"ime_psync", "DDN IME burst buffer client (engines/ime.c), no local device"},
    {"ime_psyncv", "DDN IME burst buffer client (engines/ime.c), no local device"},
    {"ime_aio", "DDN IME burst buffer client (engines/ime.c), no local device"},
    {"mtd", "raw flash through a Linux MTD character device, no block device"},
    {"e4defrag", "ext4's EXT4_IOC_MOVE_EXT ioctl: the simulated file system is not ext4"},
    {"sg",
     "SCSI generic passthrough (SG_IO READ/WRITE/VERIFY/WRITE SAME CDBs to /dev/sg or /dev/sd): "
     "the simulated devices take block requests, they have no SCSI command set"},
    {"windowsaio", "Windows overlapped I/O, not Linux"},
    {"solarisaio", "Solaris asynchronous I/O, not Linux"},
};

// Options about what the simulated host does not have. (I/O priorities,
// CPU pinning and cgroups would mean something for a simulated stack: they
// are "not supported", not listed here.)
constexpr Why kOptions[] = {
    {"numa_cpu_nodes", "pins to host NUMA nodes; the simulated host has none"},
    {"numa_mem_policy", "host NUMA memory policy; the simulated host has no NUMA nodes"},
    {"nfs_url", "libnfs engine option: a network NFS server"},
};

// Values of an option that ask for what the simulated devices are not.
struct ValueWhy {
  std::string_view option, value, why;
};
constexpr ValueWhy kValues[] = {
    {"zonemode", "zbd",
     "zoned block devices (host-managed SMR, ZNS): the simulated disks and SSDs are not zoned, "
     "they have no zones, write pointers or zone resets to drive"},
};

std::string_view Find(const Why* table, size_t n, std::string_view name) {
  for (size_t i = 0; i < n; ++i) {
    if (table[i].name == name) return table[i].why;
  }
  return "";
}

}  // namespace

std::string_view EngineNoMeaning(std::string_view engine) {
  return Find(kEngines, std::size(kEngines), engine);
}

std::string_view OptionNoMeaning(std::string_view name) {
  return Find(kOptions, std::size(kOptions), name);
}

std::string_view ValueNoMeaning(std::string_view option, std::string_view value) {
  if (option == "ioengine") return EngineNoMeaning(value);
  for (const ValueWhy& v : kValues) {
    if (v.option == option && v.value == value) return v.why;
  }
  return "";
}

}  // namespace storlab::fio
