// The transport probe: a socket pair's round trip, measured for real.
#include "sim/serve/transport_probe.h"

#include <gtest/gtest.h>

namespace storlab {
namespace transport_probe_test {

TEST(TransportProbe, MeasuresARoundTripOfASocketPair) {
  auto rt = ProbeSocketRoundTrip(4096, 20, *Clock::Real());
  ASSERT_TRUE(rt.ok()) << rt.status().ToString();
  EXPECT_GT(rt->count(), 0);
  // A megabyte comes back too (the peer's answer is larger than a socket
  // buffer, so it goes in several writes).
  auto big = ProbeSocketRoundTrip(1 << 20, 3, *Clock::Real());
  ASSERT_TRUE(big.ok()) << big.status().ToString();
  EXPECT_GT(big->count(), 0);
}

TEST(TransportProbe, RefusesNoSamplesAndOversizedAnswers) {
  EXPECT_FALSE(ProbeSocketRoundTrip(4096, 0, *Clock::Real()).ok());
  EXPECT_FALSE(ProbeSocketRoundTrip(128u << 20, 1, *Clock::Real()).ok());
}

}  // namespace transport_probe_test
}  // namespace storlab
