//===- JsonWriterTest.cpp - Unit tests of the runtime's JSON writer -------===//
//
// The writer must produce valid JSON (checked by parsing it back with
// nlohmann::json) for every nesting, escape what JSON requires, and write
// non-finite numbers as null.
//
//===----------------------------------------------------------------------===//
#include "json_writer.h"

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

using __phaseprobe::JsonWriter;

namespace {

nlohmann::json parse(const JsonWriter &W) {
  return nlohmann::json::parse(std::string(W.data(), W.size()));
}

TEST(JsonWriter, NestedObjectsAndArrays) {
  for (unsigned Indent : {0u, 1u, 2u, 5u}) {
    JsonWriter W;
    W.setIndentDepth(Indent);
    W.beginObject();
    W.key("a");
    W.integer(-3);
    W.key("list");
    W.beginArray();
    W.unsignedInteger(18446744073709551615ull);
    W.beginObject();
    W.key("x");
    W.null();
    W.endObject();
    W.beginArray();
    W.endArray();
    W.boolean(true);
    W.endArray();
    W.key("empty");
    W.beginObject();
    W.endObject();
    W.endObject();
    ASSERT_TRUE(W.ok());
    nlohmann::json J = parse(W);
    EXPECT_EQ(J["a"], -3);
    EXPECT_EQ(J["list"][0].get<uint64_t>(), 18446744073709551615ull);
    EXPECT_TRUE(J["list"][1]["x"].is_null());
    EXPECT_TRUE(J["list"][2].empty());
    EXPECT_EQ(J["list"][3], true);
    EXPECT_TRUE(J["empty"].is_object());
  }
}

TEST(JsonWriter, EscapesStrings) {
  JsonWriter W;
  const char *Nasty = "quote\" back\\slash\nnew\ttab\r\x01 caf\xc3\xa9";
  W.beginArray();
  W.string(Nasty);
  W.endArray();
  nlohmann::json J = parse(W);
  EXPECT_EQ(J[0].get<std::string>(), Nasty);
}

TEST(JsonWriter, NumbersRoundTripAndNonFiniteIsNull) {
  JsonWriter W;
  W.beginArray();
  W.number(212.0254);
  W.number(1.5e-9);
  W.number(NAN);
  W.number(INFINITY);
  W.endArray();
  nlohmann::json J = parse(W);
  EXPECT_DOUBLE_EQ(J[0].get<double>(), 212.0254);
  EXPECT_DOUBLE_EQ(J[1].get<double>(), 1.5e-9);
  EXPECT_TRUE(J[2].is_null());
  EXPECT_TRUE(J[3].is_null());
}

TEST(JsonWriter, GrowsPastItsFirstBuffer) {
  JsonWriter W;
  W.beginArray();
  for (int I = 0; I < 20000; ++I)
    W.string("a string of some length to fill the buffer");
  W.endArray();
  ASSERT_TRUE(W.ok());
  EXPECT_EQ(parse(W).size(), 20000u);
}

} // namespace
