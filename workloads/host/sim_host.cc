#include "workloads/host/sim_host.h"

#include <algorithm>
#include <cstring>

#include "sim/join.h"
#include "sim/layers/vm/vm_node.h"
#include "sim/profile/host.h"
#include "sim/profile/loader.h"
#include "sim/quoted.h"

namespace storlab {

SimHost::SimHost(const HostOptions& options) : options_(options), cpu_(1) {}

SimHost::~SimHost() {
  // Events hold callbacks into workloads and nodes: drop them first.
  engine_.Clear();
}

Result<std::unique_ptr<SimHost>> SimHost::Create(const HostOptions& options) {
  std::unique_ptr<SimHost> h(new SimHost(options));
  BuildOptions bo;
  bo.seed = options.seed;
  const bool data = options.keep_data || options.oracle;
  bo.data_mode.kind = data ? DataMode::Kind::kRam : DataMode::Kind::kNone;
  auto loaded = options.stack_text.empty()
                    ? LoadStack(options.stack, h->engine_, bo)
                    : LoadStackText(options.stack_text, options.stack, ".", h->engine_, bo);
  if (!loaded.ok()) return loaded.status();
  h->stack_ = std::move(loaded->stack);
  h->stack_faults_ = std::move(loaded->faults);
  h->resolved_ = std::move(loaded->resolved);
  h->host_ = loaded->host;
  // The command line's values are checked as the file's [host] keys are.
  if (options.mem_bytes) {
    RETURN_IF_ERROR(
        OverrideHost("mem", std::to_string(*options.mem_bytes), "--host-mem", &h->host_));
  }
  if (options.cores) {
    RETURN_IF_ERROR(
        OverrideHost("cores", std::to_string(*options.cores), "--host-cores", &h->host_));
  }
  Node& top = h->stack_->root();
  if (VmNode* vm = NodeAs<VmNode>(&top)) {
    // The workload runs in the guest: its page cache takes buffered I/O,
    // O_DIRECT goes to the virtual disk, and its RAM and vCPUs are the
    // machine (the stack file has no [host] table then: the loader says so).
    if (options.mem_bytes || options.cores) {
      return Status::InvalidArgument(
          "--host-mem and --host-cores describe the machine the workload runs on, which under "
          "the vm node " +
          Quoted(vm->name()) + " is the guest: set its guest_mem and vcpus");
    }
    h->page_cache_ = &vm->guest();
    h->root_ = &vm->vdisk();
    h->host_ = vm->guest().config().host;
  } else if (PageCache* pc = NodeAs<PageCache>(&top)) {
    // The stack brings its own host page cache.
    h->page_cache_ = pc;
    h->root_ = top.children()[0];
  } else if (top.kind() == NodeKind::kZfs) {
    // ZFS datasets do not use Linux's page cache: the pool's ARC and txgs
    // take buffered I/O. O_DIRECT is passed with kDirect, which the pool
    // ignores, as ZFS before 2.3 accepted O_DIRECT without honouring it.
    h->root_ = &top;
  } else {
    h->root_ = &top;
    PageCacheConfig pc;
    pc.host = h->host_;
    pc.keeps_data = data;
    h->page_cache_ =
        &h->stack_->Adopt(std::make_unique<PageCache>(h->engine_, "host_page_cache", pc, top));
  }
  h->buffered_ = h->page_cache_ ? static_cast<Node*>(h->page_cache_) : h->root_;
  h->direct_ = h->root_;
  h->cpu_ = CpuPool(h->host_.cores);
  h->writes_carry_data_ = h->keeps_data();
  for (const auto& n : h->stack_->nodes()) h->writes_carry_data_ |= n->caps().uses_write_data;
  uint32_t block = std::max<uint32_t>(4096, h->root_->geometry().logical_block);
  h->fs_ = std::make_unique<ExtentFs>(h->root_->geometry().capacity, block);
  h->prefill_percent_ = options.prefill.value_or(loaded->fs_prefill);
  if (h->prefill_percent_ > 0) h->prefill_ = PrefillFs(*h->fs_, h->prefill_percent_, options.seed);
  return h;
}

void SimHost::set_direct_bypasses_cache(bool bypass) {
  direct_bypass_ = bypass;
  if (!options_.oracle || oracle_) return;
  // On top of whatever the workload's I/O reaches first.
  Node*& top = bypass ? direct_ : buffered_;
  oracle_ = &stack_->Adopt(std::make_unique<Oracle>(engine_, *top));
  top = oracle_;
}

void SimHost::FileIo(uint32_t file, Op op, uint64_t offset, uint64_t length, bool direct,
                     Completion done, uint32_t flags, uint8_t* data) {
  flags |= direct ? kDirect : 0;
  Node& target = !direct ? *buffered_ : direct_bypass_ ? *direct_ : *buffered_;
  uint64_t dev = fs_->MapContiguous(file, offset, length);
  if (dev != ExtentFs::kHole) {
    if (op == Op::kWrite) fs_->GrowSize(file, offset + length);  // fallocate=keep's blocks
    Request r{.op = op,
              .flags = flags,
              .offset = dev,
              .length = length,
              .data = data,
              .file_id = file,
              .done = std::move(done)};
    target.Submit(std::move(r));
    return;
  }
  Split(file, op, offset, length, flags, data, target, std::move(done));
}

void SimHost::Split(uint32_t file, Op op, uint64_t offset, uint64_t length, uint32_t flags,
                    uint8_t* data, Node& target, Completion done) {
  scratch_.clear();
  Status st = fs_->Map(file, offset, length, op == Op::kWrite, &scratch_);
  if (!st.ok()) {
    engine_.After(Nanos(0), [d = std::move(done), st]() mutable { d(st); });
    return;
  }
  std::vector<ExtentFs::Extent> pieces;
  // A hole reads as zeros without touching the device, but not for free:
  // the host's CPU zeroes (and, buffered, copies) what it returns.
  Nanos zeroed = engine_.now();
  for (const auto& e : scratch_) {
    if (e.device_offset != ExtentFs::kHole) {
      pieces.push_back(e);
    } else if (op == Op::kRead && page_cache_) {
      zeroed = Max(zeroed, page_cache_->HoleRead(e.file_offset, e.length, (flags & kDirect) != 0));
    }
  }
  if (data && op == Op::kRead) std::memset(data, 0, length);  // holes read as zeros
  auto join = Join::Make(std::move(done));
  if (zeroed > engine_.now() || pieces.empty()) {
    engine_.After(zeroed - engine_.now(), [d = join->Arm()]() mutable { d(Status()); });
  }
  for (const auto& e : pieces) {
    Request r{.op = op,
              .flags = flags,
              .offset = e.device_offset,
              .length = e.length,
              .data = data ? data + (e.file_offset - offset) : nullptr,
              .file_id = file,
              .done = join->Arm()};
    target.Submit(std::move(r));
  }
  join->Seal(engine_);
}

void SimHost::SyncFileRange(uint32_t file, uint64_t offset, uint64_t length, uint32_t flags,
                            Completion done) {
  scratch_.clear();
  Status st = page_cache_ ? fs_->Map(file, offset, length, false, &scratch_) : Status();
  auto join = Join::Make(std::move(done));
  if (!st.ok()) {
    engine_.After(Nanos(0), [d = join->Arm(), st]() mutable { d(st); });
  } else if (page_cache_) {
    for (const auto& e : scratch_) {
      if (e.device_offset == ExtentFs::kHole) continue;
      page_cache_->SyncFileRange(file, e.device_offset, e.length, flags, join->Arm());
    }
  }
  join->Seal(engine_);
}

void SimHost::Fsync(uint32_t file, bool direct, Completion done) {
  Request r{.op = Op::kFlush, .file_id = file, .done = std::move(done)};
  (direct && direct_bypass_ ? *direct_ : *buffered_).Submit(std::move(r));
}

}  // namespace storlab
