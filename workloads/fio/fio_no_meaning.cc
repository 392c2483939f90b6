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

// Options about what the simulated host does not have, and the options of
// the engines above (fio --enghelp=ENGINE), which mean nothing without
// their engine.
constexpr Why kOptions[] = {
    {"numa_cpu_nodes", "pins to host NUMA nodes; the simulated host has none"},
    {"numa_mem_policy", "host NUMA memory policy; the simulated host has no NUMA nodes"},
    {"nfs_url", "libnfs engine option: a network NFS server"},
    // fio's clock and the real host's processes and users.
    {"clocksource", "how fio reads the time of day: storlab's clock is the simulation's own"},
    {"gtod_cpu", "a thread keeping fio's time of day: storlab's clock costs nothing to read"},
    {"uid", "runs the job as another user: the simulated file system has no owners"},
    {"gid", "runs the job as another group: the simulated file system has no owners"},
    {"exec_prerun", "runs a command on the real host before the job, outside the simulated stack"},
    {"exec_postrun", "runs a command on the real host after the job, outside the simulated stack"},
    {"unique_filename", "fio --client mode's file name prefix: storlab sim has no client/server"},
    {"mem", "what backs fio's buffers in host memory: no simulated timing depends on it"},
    {"iomem", "what backs fio's buffers in host memory: no simulated timing depends on it"},
    {"hugepage-size", "huge pages for mem=shmhuge/mmaphuge: no simulated timing depends on it"},
    {"write_barrier", "only the libpmem engine honours barriers (FIO_BARRIER), no block I/O"},
    // The host's scheduling and resource control, which the model has not.
    {"nice",
     "the simulated host's cores run CPU bursts in arrival order (workloads/host/cpu_pool.h), "
     "with no scheduler priority for nice to change"},
    {"cgroup", "a blkio/io cgroup: the simulated host has no cgroups, its stack no I/O controller"},
    {"cgroup_weight",
     "a blkio/io cgroup weight: the simulated host has no cgroups, its stack no I/O controller"},
    {"cgroup_nodelete", "keeps fio's cgroup directory: the simulated host has no cgroups"},
    {"ioscheduler",
     "switches the device's Linux I/O scheduler (sysfs queue/scheduler): the simulated stack "
     "has no block-layer scheduler to switch"},
    {"write_hint",
     "a write lifetime hint (fcntl F_SET_RW_HINT): no simulated device or layer places data by "
     "hints"},
    // Log compression (iolog.c iolog_file_inflate(), options.c).
    {"log_compression", "compresses the logs with zlib, which is not among storlab's dependencies"},
    {"log_compression_cpus",
     "pins fio's log compression threads; compression needs zlib, not among storlab's "
     "dependencies"},
    {"log_store_compressed",
     "stores the logs zlib-compressed, and zlib is not among storlab's dependencies"},
    // net and netsplice (engines/net.c).
    {"hostname", "net/rdma engine option: a network peer, no storage stack"},
    {"port", "net/rdma engine option: a network port, no storage stack"},
    {"protocol", "net engine option: TCP/UDP/Unix sockets, no storage stack"},
    {"nodelay", "net engine option: TCP_NODELAY, no storage stack"},
    {"listen", "net engine option: listen for a network peer, no storage stack"},
    {"pingpong", "net engine option: network ping-pong, no storage stack"},
    {"interface", "net engine option: the multicast network interface, no storage stack"},
    {"ttl", "net engine option: the multicast TTL, no storage stack"},
    {"window_size", "net engine option: the socket buffer size, no storage stack"},
    {"mss", "net engine option: the TCP maximum segment size, no storage stack"},
    // rdma (engines/rdma.c).
    {"bindname", "rdma engine option: the local RDMA interface, no storage stack"},
    {"verb", "rdma engine option: the RDMA verb, no storage stack"},
    // rados and rbd (engines/rados.c, rbd.c).
    {"clustername", "rados/rbd engine option: a Ceph cluster over the network"},
    {"rbdname", "rbd engine option: a Ceph RADOS block device over the network"},
    {"pool", "rados/rbd engine option: a Ceph pool over the network"},
    {"clientname", "rados/rbd engine option: a Ceph client over the network"},
    {"conf", "rados engine option: a Ceph configuration file"},
    {"busy_poll", "rados/rbd engine option: polls for Ceph completions over the network"},
    {"touch_objects", "rados engine option: Ceph objects over the network"},
    // gfapi (engines/glusterfs.c).
    {"volume", "gfapi engine option: a GlusterFS volume over the network"},
    {"brick", "gfapi engine option: a GlusterFS brick over the network"},
    {"single-instance", "gfapi engine option: one GlusterFS connection over the network"},
    // exec (engines/exec.c).
    {"program", "exec engine option: runs a program on the real host, does no I/O"},
    {"arguments", "exec engine option: runs a program on the real host, does no I/O"},
    {"grace_time", "exec engine option: runs a program on the real host, does no I/O"},
    {"std_redirect", "exec engine option: runs a program on the real host, does no I/O"},
    // cpuio (engines/cpu.c).
    {"cpuload", "cpuio engine option: burns host CPU cycles, does no I/O"},
    {"cpuchunks", "cpuio engine option: burns host CPU cycles, does no I/O"},
    {"cpumode", "cpuio engine option: burns host CPU cycles, does no I/O"},
    {"exit_on_io_done", "cpuio engine option: burns host CPU cycles, does no I/O"},
    // e4defrag, mtd, nbd (libnbd).
    {"donorname", "e4defrag engine option: the simulated file system is not ext4"},
    {"inplace", "e4defrag engine option: the simulated file system is not ext4"},
    {"skip_bad", "mtd engine option: raw flash's bad blocks, no block device"},
    {"uri", "nbd engine option: a network NBD server"},
    // sg (engines/sg.c).
    {"readfua", "sg engine option: SCSI CDBs, the simulated devices have no SCSI command set"},
    {"writefua", "sg engine option: SCSI CDBs, the simulated devices have no SCSI command set"},
    {"sg_write_mode",
     "sg engine option: SCSI CDBs, the simulated devices have no SCSI command set"},
    {"stream_id", "sg engine option: SCSI CDBs, the simulated devices have no SCSI command set"},
    // zonemode=zbd (zbd.c), which has no meaning here (kValues).
    {"max_open_zones", "zonemode=zbd option: the simulated devices are not zoned"},
    {"job_max_open_zones", "zonemode=zbd option: the simulated devices are not zoned"},
    {"zonecapacity", "zonemode=zbd option: the simulated devices are not zoned"},
    {"zone_reset_threshold", "zonemode=zbd option: the simulated devices are not zoned"},
    {"zone_reset_frequency", "zonemode=zbd option: the simulated devices are not zoned"},
    {"read_beyond_wp", "zonemode=zbd option: the simulated devices are not zoned"},
    {"ignore_zone_limits", "zonemode=zbd option: the simulated devices are not zoned"},
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

std::vector<std::string_view> NoMeaningOptions() {
  std::vector<std::string_view> out;
  for (const Why& w : kOptions) out.push_back(w.name);
  return out;
}

std::string_view ValueNoMeaning(std::string_view option, std::string_view value) {
  if (option == "ioengine") return EngineNoMeaning(value);
  for (const ValueWhy& v : kValues) {
    if (v.option == option && v.value == value) return v.why;
  }
  return "";
}

}  // namespace storlab::fio
