#include "sim/layers/iscsi/iscsi_session.h"

#include <algorithm>

namespace storlab {

uint64_t IscsiSession::DataPduBytes(uint64_t data, uint64_t segment) {
  const uint64_t pdus = std::max<uint64_t>(1, (data + segment - 1) / segment);
  return data + pdus * kBhs;
}

IscsiSession::WritePlan IscsiSession::PlanWrite(uint64_t length) const {
  WritePlan p;
  // RFC 7143 §4.2.5.1: unsolicited data is the immediate data (at most one
  // segment, in the command PDU) and, with InitialR2T=No, Data-Out PDUs up
  // to FirstBurstLength in all.
  uint64_t immediate = 0;
  if (immediate_data) immediate = std::min({length, first_burst, target_max_recv_segment});
  p.unsolicited = initial_r2t ? immediate : std::min(length, first_burst);
  p.command_bytes = kBhs + immediate;
  if (p.unsolicited > immediate)
    p.command_bytes += DataPduBytes(p.unsolicited - immediate, target_max_recv_segment);
  p.solicited = length - p.unsolicited;
  p.bursts = (p.solicited + max_burst - 1) / max_burst;
  return p;
}

}  // namespace storlab
