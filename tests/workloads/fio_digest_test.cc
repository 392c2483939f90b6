// The checksums of fio's verify= types (workloads/fio/digest.h) against
// their published test vectors.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "workloads/fio/digest.h"

namespace storlab::fio {
namespace fio_digest_test {

const uint8_t* U(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

template <typename C>
std::string Hex(const C& bytes) {
  std::string s;
  char b[3];
  for (auto v : bytes) {
    std::snprintf(b, sizeof(b), "%02x", static_cast<unsigned>(v));
    s += b;
  }
  return s;
}

const std::string kCheck = "123456789";
// FIPS 180-4's two-block examples (NIST "Examples with Intermediate
// Values", SHA1.pdf, SHA256.pdf, SHA512.pdf; SHA3 examples likewise).
const std::string k448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
const std::string k896 =
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnop"
    "qrsmnopqrstnopqrstu";

// The check values of "123456789" in Greg Cook's Catalogue of parametrised
// CRC algorithms (reveng.sourceforge.io/crc-catalogue), for the algorithm
// each of fio's CRCs is.
TEST(DigestTest, CrcCheckValues) {
  EXPECT_EQ(Crc7(U(kCheck), 9), 0x75);                    // CRC-7/MMC
  EXPECT_EQ(Crc16(U(kCheck), 9), 0xbb3d);                 // CRC-16/ARC
  EXPECT_EQ(Crc64(U(kCheck), 9), 0xe9c6d914c4b8d9caULL);  // CRC-64/REDIS
  // CRC-32/CKSUM's check is 0x765e7680 after its final inversion, which
  // fio_crc32() does not do.
  EXPECT_EQ(Crc32Posix(U(kCheck), 9), ~0x765e7680U);
  EXPECT_EQ(Crc7(nullptr, 0), 0);
  EXPECT_EQ(Crc64(nullptr, 0), 0u);
}

// RFC 1321 appendix A.5, the MD5 test suite.
TEST(DigestTest, Md5Rfc1321Suite) {
  const std::pair<std::string, std::string> suite[] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
       "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (const auto& [in, want] : suite) EXPECT_EQ(Hex(Md5(U(in), in.size())), want) << in;
}

std::string Sha1Hex(const std::string& m) {
  char b[41];
  const auto h = Sha1Words(U(m), m.size());
  std::snprintf(b, sizeof(b), "%08x%08x%08x%08x%08x", h[0], h[1], h[2], h[3], h[4]);
  return b;
}

// FIPS 180-4's examples (FIPS 180-2 appendix A): "abc", the 448-bit
// message, one million 'a'.
TEST(DigestTest, Sha1Fips180) {
  EXPECT_EQ(Sha1Hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
  EXPECT_EQ(Sha1Hex(k448), "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
  EXPECT_EQ(Sha1Hex(std::string(1000000, 'a')), "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
  EXPECT_EQ(Sha1Hex(""), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
}

// FIPS 180-2 appendix B.1, B.2.
TEST(DigestTest, Sha256Fips180) {
  EXPECT_EQ(Hex(Sha256(U("abc"), 3)),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Hex(Sha256(U(k448), k448.size())),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Hex(Sha256(nullptr, 0)),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

std::string Sha512Hex(const std::string& m, size_t piece) {
  Sha512 h;
  for (size_t i = 0; i < m.size(); i += piece) {
    h.Update(U(m) + i, std::min(piece, m.size() - i));
  }
  return Hex(h.Final());
}

// FIPS 180-2 appendix C.1, C.2; fed whole and in uneven pieces.
TEST(DigestTest, Sha512Fips180) {
  for (size_t piece : {size_t{1000}, size_t{7}, size_t{128}}) {
    EXPECT_EQ(Sha512Hex("abc", piece),
              "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
              "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f");
    EXPECT_EQ(Sha512Hex(k896, piece),
              "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
              "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909");
  }
  EXPECT_EQ(Sha512Hex("", 1),
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
            "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e");
}

// NIST's SHA-3 examples for FIPS 202 (SHA3-224/256/384/512_Msg0 and "abc",
// and the 448-bit message), the 512-bit one also over several rate blocks.
TEST(DigestTest, Sha3Fips202) {
  EXPECT_EQ(Hex(Sha3(U("abc"), 3, 28)), "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf");
  EXPECT_EQ(Hex(Sha3(U("abc"), 3, 32)),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
  EXPECT_EQ(Hex(Sha3(U("abc"), 3, 48)),
            "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b2"
            "98d88cea927ac7f539f1edf228376d25");
  EXPECT_EQ(Hex(Sha3(U("abc"), 3, 64)),
            "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
            "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0");
  EXPECT_EQ(Hex(Sha3(nullptr, 0, 32)),
            "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a");
  EXPECT_EQ(Hex(Sha3(U(k448), k448.size(), 32)),
            "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376");
  EXPECT_EQ(Hex(Sha3(U(k896), k896.size(), 64)),
            "afebb2ef542e6579c50cad06d2e578f9f8dd6881d7dc824d26360feebf18a4fa"
            "73e3261122948efcfd492e74e82e2189ed0fb440d187f382270cb455f21dd185");
}

}  // namespace fio_digest_test
}  // namespace storlab::fio
