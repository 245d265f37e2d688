#include "phaseprobe/atomic_file.h"
#include "phaseprobe/error.h"
#include "phaseprobe/stream_notation.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace phaseprobe;

TEST(StreamNotation, RoundTripsTheContractExample) {
  auto S = parseStreams("15617:32000:8:shared;3124:8:8:private");
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].footprintKiB, 15617);
  EXPECT_EQ(S[0].strideBytes, 32000);
  EXPECT_EQ(S[0].elemBytes, 8u);
  EXPECT_EQ(S[0].access, Access::Shared);
  EXPECT_EQ(S[1].access, Access::Private);
  EXPECT_EQ(formatStreams(S), "15617:32000:8:shared;3124:8:8:private");
}

TEST(StreamNotation, FormatsFractionsShortest) {
  EXPECT_EQ(formatNumber(0.01242), "0.01242");
  EXPECT_EQ(formatNumber(0.5), "0.5");
  EXPECT_EQ(formatNumber(16000000000.0), "16000000000");
  EXPECT_EQ(std::stod(formatNumber(1.0 / 3)), 1.0 / 3);
}

TEST(StreamNotation, NamesTheWrongField) {
  try {
    parseStreams("100:8:8:shared;100:x:8:shared", "p.csv", "row 3");
    FAIL();
  } catch (const InputError &E) {
    EXPECT_STREQ(E.what(), "p.csv: row 3, stream 2: stride_bytes 'x' is not a number");
  }
  EXPECT_THROW(parseStreams(""), InputError);
  EXPECT_THROW(parseStreams("100:8:8"), InputError);
  EXPECT_THROW(parseStreams("100:8:3.5:shared"), InputError);
  EXPECT_THROW(parseStreams("100:8:8:both"), InputError);
  EXPECT_THROW(parseStreams("-1:8:8:shared"), InputError);
}

TEST(AtomicFile, ReplacesWholeOrNothing) {
  char Dir[] = "/tmp/pp_atomicXXXXXX";
  ASSERT_NE(mkdtemp(Dir), nullptr);
  std::string P = std::string(Dir) + "/out.json";
  writeFileAtomically(P, "first");
  writeFileAtomically(P, "second");
  EXPECT_EQ(readFile(P), "second");
  EXPECT_THROW(writeFileAtomically(std::string(Dir) + "/missing/x.json", "y"), InputError);
  EXPECT_THROW(readFile(std::string(Dir) + "/nope"), InputError);
  unlink(P.c_str());
  rmdir(Dir);
}
