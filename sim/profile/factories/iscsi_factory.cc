// MakeIscsi: the "iscsi" node type's profile keys, read into IscsiConfig.
// The defaults are an ESXi software initiator logged in to a TrueNAS SCALE
// target (SCST) over 10 Gb/s Ethernet; each key names its source.
#include <memory>
#include <string>

#include "sim/layers/iscsi/iscsi.h"
#include "sim/layers/link/ethernet_frame.h"
#include "sim/profile/factories/factories.h"

namespace storlab {

Result<std::unique_ptr<Node>> MakeIscsi(Params& params, BuildContext& ctx) {
  IscsiConfig c;
  IscsiSession& s = c.session;
  params.Rate({"link_rate", "Ethernet line rate, each direction (10GBASE-T: 10 Gb/s)"},
              &c.line_bytes_per_s);
  params.Int({"mtu", "Ethernet MTU, bytes (1500; jumbo frames: 9000)"}, &c.mtu,
             EthernetFrame::kMinMtu, EthernetFrame::kMaxMtu);
  params.Duration({"rtt", "network round-trip time (assumed, as the ethernet-10g link preset)"},
                  &c.rtt);
  params.Int({"initiator_queue_depth",
              "commands the initiator keeps outstanding per LUN (ESXi software iSCSI "
              "iscsivmk_LunQDepth, default 128: vSphere Storage, \"Change Maximum Queue Depth "
              "for Software iSCSI\")"},
             &c.initiator_queue_depth, 1, 65535);
  params.Int({"target_queue_depth",
              "the target's command window per session (SCST QueuedCommands, default 32: "
              "iscsi-scst/include/iscsi_scst.h DEFAULT_NR_QUEUED_CMNDS; LIO: 64)"},
             &c.target_queue_depth, 1, 65535);
  params.Bool({"write_cache",
               "the LUN reports a volatile write cache (WCE=1, SCST vdisk write_through=0, "
               "the default); false: the target writes every write through"},
              &c.write_cache);
  params.Bool({"initial_r2t",
               "InitialR2T: no unsolicited data beyond the immediate data (RFC 7143 default "
               "Yes; SCST offers No, and the ESXi initiator is assumed to as well)"},
              &s.initial_r2t);
  params.Bool({"immediate_data", "ImmediateData: data rides in the command PDU (RFC 7143: Yes)"},
              &s.immediate_data);
  params.Size({"first_burst",
               "FirstBurstLength: unsolicited data per command (negotiated: the "
               "lower of ESXi's 256 KiB and SCST's unlimited offer)"},
              &s.first_burst, 512, (uint64_t{1} << 24) - 1);
  params.Size({"max_burst", "MaxBurstLength: data per R2T-solicited burst (ESXi's 256 KiB)"},
              &s.max_burst, 512, (uint64_t{1} << 24) - 1);
  params.Size({"target_max_recv_segment",
               "the target's MaxRecvDataSegmentLength: data per Data-Out PDU (SCST declares "
               "no limit of its own: a burst goes as one PDU)"},
              &s.target_max_recv_segment, 512, (uint64_t{1} << 24) - 1);
  params.Size({"initiator_max_recv_segment",
               "the initiator's MaxRecvDataSegmentLength: data per Data-In PDU (ESXi: 128 KiB)"},
              &s.initiator_max_recv_segment, 512, (uint64_t{1} << 24) - 1);
  RETURN_IF_ERROR(params.Finish());
  if (c.line_bytes_per_s <= 0) {
    params.Fail("link_rate", "must be positive");
    return params.Finish();
  }
  return std::unique_ptr<Node>(new Iscsi(ctx.engine, ctx.node_name, *ctx.children[0], c));
}

}  // namespace storlab
