// IscsiSession: the negotiated parameters of one iSCSI session (RFC 7143)
// and the PDU arithmetic of a command under them: how a write's data splits
// into unsolicited data and R2T-solicited bursts, and how many bytes each
// part puts on the wire with its PDU headers.
//
// Every PDU starts with a 48-byte Basic Header Segment (RFC 7143 §11.2); no
// additional header segments, no digests (HeaderDigest/DataDigest "None",
// the RFC's default and ESXi's "Prohibited"). A data segment is padded to 4
// bytes (§11.2.3: the block sizes here are multiples of 4).
//
// Writes (§4.2.5.1, §13.10–13.14): with ImmediateData=Yes the SCSI Command
// PDU carries the first data; with InitialR2T=No the initiator may send
// unsolicited Data-Out PDUs after it, up to FirstBurstLength in all; the
// rest is sent only as the target asks for it, one R2T per burst of at most
// MaxBurstLength, and with MaxOutstandingR2T=1 (SCST's only value:
// iscsi-scst/usr/param.c session_keys) the next R2T waits until the burst
// before it has arrived. Data-Out PDUs carry at most the target's
// MaxRecvDataSegmentLength each; Data-In PDUs (reads) at most the
// initiator's. The SCSI Response is its own 48-byte PDU after a write; a
// read's status rides in its last Data-In PDU (the S bit, §11.7.1: LIO and
// SCST both send it so). Plain data; thread-safe.
#ifndef STORLAB_SIM_LAYERS_ISCSI_ISCSI_SESSION_H_
#define STORLAB_SIM_LAYERS_ISCSI_ISCSI_SESSION_H_

#include <cstdint>

namespace storlab {

struct IscsiSession {
  static constexpr uint64_t kBhs = 48;  // Basic Header Segment, every PDU

  bool initial_r2t = false;       // InitialR2T (negotiated: Yes if either side says Yes)
  bool immediate_data = true;     // ImmediateData (Yes only if both say Yes)
  uint64_t first_burst = 262144;  // FirstBurstLength
  uint64_t max_burst = 262144;    // MaxBurstLength
  uint64_t target_max_recv_segment = 262144;     // Data-Out segment limit (the target's MRDSL)
  uint64_t initiator_max_recv_segment = 131072;  // Data-In segment limit (the initiator's)

  // How a write of `length` bytes goes out.
  struct WritePlan {
    uint64_t unsolicited = 0;    // data sent with the command, no R2T
    uint64_t command_bytes = 0;  // wire bytes of the command PDU and the unsolicited data
    uint64_t solicited = 0;      // data sent in R2T bursts
    uint64_t bursts = 0;         // R2Ts (and bursts) the solicited data takes
  };
  WritePlan PlanWrite(uint64_t length) const;
  // Wire bytes of `data` bytes sent as PDUs of at most `segment` bytes each
  // (one header per PDU; at least one PDU).
  static uint64_t DataPduBytes(uint64_t data, uint64_t segment);
  // Wire bytes of one solicited burst of `data` bytes (its Data-Out PDUs).
  uint64_t BurstBytes(uint64_t data) const { return DataPduBytes(data, target_max_recv_segment); }
  // Wire bytes of a read's Data-In PDUs for `length` bytes (status included).
  uint64_t ReadReplyBytes(uint64_t length) const {
    return DataPduBytes(length, initiator_max_recv_segment);
  }
};

}  // namespace storlab

#endif  // STORLAB_SIM_LAYERS_ISCSI_ISCSI_SESSION_H_
