//===- QuantMathTFLiteTest.cpp - hand-computed and published TFLite cases -===//
//
// Every expectation here is computed by hand (the derivation is in the
// comment) or copied from a published TFLite test, never produced by the
// code under test.
//
//===----------------------------------------------------------------------===//

#include "QNN/Utils/QuantMath.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace mlir::qnn::math;

namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

void expectMultiplier(double real, int32_t multiplier, int32_t shift) {
  QuantizedMultiplier m = quantizeMultiplier(real);
  EXPECT_EQ(m.multiplier, multiplier) << "real " << real;
  EXPECT_EQ(m.shift, shift) << "real " << real;
}

TEST(ExactQuantizeMultiplier, PowersOfTwo) {
  expectMultiplier(0.0, 0, 0);
  expectMultiplier(0.125, 1 << 30, -2);
  expectMultiplier(0.5, 1 << 30, 0);
  expectMultiplier(1.0, 1 << 30, 1);
  expectMultiplier(4.0, 1 << 30, 3);
}

// The expectations of TFLite's quantization_util_test.cc
// (QuantizeMultiplierSmallerThanOne in its exponent form,
// QuantizeMultiplierGreaterThanOne, QuantizeMultiplierUnderflow).
TEST(ExactQuantizeMultiplier, PublishedTFLiteVectors) {
  expectMultiplier(0.25, 1073741824, -1);
  expectMultiplier(0.50 - 5e-9, 2147483627, -1);
  expectMultiplier(0.50 - 1e-10, 1073741824, 0);
  expectMultiplier(0.75, 1610612736, 0);
  expectMultiplier(1 - 1e-9, 2147483646, 0);
  expectMultiplier(1 + 1e-11, 1073741824, 1);
  expectMultiplier(1.25, 1342177280, 1);
  expectMultiplier(1.50, 1610612736, 1);
  expectMultiplier(1.75, 1879048192, 1);
  expectMultiplier(2 - 1e-9, 2147483647, 1);
  expectMultiplier(2 - 1e-11, 1073741824, 2);
  expectMultiplier(2, 1073741824, 2);
  expectMultiplier(std::ldexp(1.0f, -31), 1073741824, -30);
  expectMultiplier(std::ldexp(1.0f, -32), 1073741824, -31);
  expectMultiplier(std::ldexp(0.99f, -32), 0, 0);
  expectMultiplier(std::ldexp(1.0f, -33), 0, 0);
}

TEST(ExactQuantizeMultiplier, SignificandRoundingUpToTwoPow31Renormalises) {
  // frexp(1 - 2^-40) = (1 - 2^-40, 0); * 2^31 rounds to 2^31 -> (2^30, 1).
  expectMultiplier(1.0 - std::ldexp(1.0, -40), 1 << 30, 1);
}

TEST(ExactSaturatingRoundingDoublingHighMul, Cases) {
  // The only overflow: (-2^31)^2 * 2 / 2^32 = 2^31 -> saturates.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, kMin), kMax);
  // 2^30 * 2^30 * 2 / 2^32 = 2^29 exactly.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
  // 1 * 2^30 * 2 / 2^32 = 0.5 -> 1; -0.5 -> 0 (halves toward +infinity).
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1, 1 << 30), 1);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-1, 1 << 30), 0);
  // -3 * 0.5 = -1.5 -> -1.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-3, 1 << 30), -1);
  // kMax * kMax * 2 / 2^32 = (2^31 - 1)^2 / 2^31 = 2^31 - 2 + 2^-31 -> 2^31-2.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMax, kMax), kMax - 1);
  // kMin * kMax -> -(2^31 - 1) exactly.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, kMax), -kMax);
}

TEST(ExactRoundingDivideByPOT, HalvesAwayFromZero) {
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);   // 2.5
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3); // -2.5
  EXPECT_EQ(roundingDivideByPOT(-4, 1), -2);
  EXPECT_EQ(roundingDivideByPOT(7, 2), 2);   // 1.75
  EXPECT_EQ(roundingDivideByPOT(6, 2), 2);   // 1.5
  EXPECT_EQ(roundingDivideByPOT(-6, 2), -2); // -1.5
  EXPECT_EQ(roundingDivideByPOT(-5, 2), -1); // -1.25
  EXPECT_EQ(roundingDivideByPOT(kMin, 31), -1);
  EXPECT_EQ(roundingDivideByPOT(kMax, 31), 1); // 0.99999...
  EXPECT_EQ(roundingDivideByPOT(12345, 0), 12345);
}

// toolchain-notes: multiplier 2^-4, input 7. TFLite rounds twice:
// SRDHM(7, 2^30) = 3.5 -> 4, then 4 / 2^3 = 0.5 -> 1. The exact value 0.4375
// rounds to 0 under both single-rounding rules.
TEST(ExactRescale, DoubleRoundingDiffersFromSingleRounding) {
  QuantizedMultiplier m = quantizeMultiplier(1.0 / 16);
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, -3);
  EXPECT_EQ(rescale(7, m, RoundingRule::TFLite), 1);
  EXPECT_EQ(rescale(7, m, RoundingRule::Upward), 0);
  EXPECT_EQ(rescale(7, m, RoundingRule::ToNearest), 0);
}

// Negative values at exactly .5 under each rule.
TEST(ExactRescale, NegativeHalves) {
  QuantizedMultiplier half = quantizeMultiplier(0.5);
  // -3 * 0.5 = -1.5: TFLite's high multiply rounds toward +inf (-1), then
  // divides by 2^0; UPWARD adds 2^30 and floors (-1); TONEAREST rounds away
  // from zero (-2).
  EXPECT_EQ(rescale(-3, half, RoundingRule::TFLite), -1);
  EXPECT_EQ(rescale(-3, half, RoundingRule::Upward), -1);
  EXPECT_EQ(rescale(-3, half, RoundingRule::ToNearest), -2);
  EXPECT_EQ(rescale(3, half, RoundingRule::TFLite), 2);
  EXPECT_EQ(rescale(3, half, RoundingRule::Upward), 2);
  EXPECT_EQ(rescale(3, half, RoundingRule::ToNearest), 2);
  // -2 * 0.25 = -0.5 with shift -1: TFLite SRDHM(-2, 2^30) = -1 exactly, then
  // -1 / 2 = -0.5 rounds away from zero (-1); UPWARD gives 0; TONEAREST -1.
  QuantizedMultiplier quarter = quantizeMultiplier(0.25);
  EXPECT_EQ(rescale(-2, quarter, RoundingRule::TFLite), -1);
  EXPECT_EQ(rescale(-2, quarter, RoundingRule::Upward), 0);
  EXPECT_EQ(rescale(-2, quarter, RoundingRule::ToNearest), -1);
}

TEST(ExactRescale, MultiplierAboveOneShiftsLeft) {
  // 3.0 = 0.75 * 2^2: (5 << 2) * 0.75 = 15.
  QuantizedMultiplier three = quantizeMultiplier(3.0);
  EXPECT_EQ(three.multiplier, 1610612736);
  EXPECT_EQ(three.shift, 2);
  EXPECT_EQ(rescale(5, three, RoundingRule::TFLite), 15);
  EXPECT_EQ(rescale(-5, three, RoundingRule::Upward), -15);
  EXPECT_EQ(rescale(-5, three, RoundingRule::ToNearest), -15);
}

TEST(ExactRescale, SaturationAtInt32Limits) {
  QuantizedMultiplier two = quantizeMultiplier(2.0);
  // Single-rounding rules compute the exact product and saturate.
  EXPECT_EQ(rescale(kMax, two, RoundingRule::Upward), kMax);
  EXPECT_EQ(rescale(kMin, two, RoundingRule::ToNearest), kMin);
  // TFLite's left shift wraps in 32 bits: kMax << 2 = -4, * 0.5 -> -2.
  EXPECT_EQ(rescale(kMax, two, RoundingRule::TFLite), -2);
  // A flushed multiplier gives 0 for every input.
  QuantizedMultiplier tiny = quantizeMultiplier(std::ldexp(1.0, -40));
  EXPECT_EQ(rescale(kMax, tiny, RoundingRule::TFLite), 0);
  EXPECT_EQ(rescale(kMax, tiny, RoundingRule::Upward), 0);
}

TEST(ExactRequantize, ZeroPointsAndClamping) {
  QuantizedMultiplier half = quantizeMultiplier(0.5);
  // i8: 600 * 0.5 - 128 = 172 -> 127; -200 * 0.5 - 128 = -228 -> -128.
  EXPECT_EQ(requantize(600, 0, half, -128, -128, 127, RoundingRule::TFLite),
            127);
  EXPECT_EQ(requantize(-200, 0, half, -128, -128, 127, RoundingRule::TFLite),
            -128);
  // ui8: (-10 - 0) * 0.5 + 3 = -2 -> 0; (21 - 1) * 0.5 + 3 = 13.
  EXPECT_EQ(requantize(-10, 0, half, 3, 0, 255, RoundingRule::TFLite), 0);
  EXPECT_EQ(requantize(21, 1, half, 3, 0, 255, RoundingRule::TFLite), 13);
  // Input zero point -5: (-8 + 5) * 0.5 = -1.5 -> -1 / -1 / -2.
  EXPECT_EQ(requantize(-8, -5, half, 0, -128, 127, RoundingRule::TFLite), -1);
  EXPECT_EQ(requantize(-8, -5, half, 0, -128, 127, RoundingRule::Upward), -1);
  EXPECT_EQ(requantize(-8, -5, half, 0, -128, 127, RoundingRule::ToNearest),
            -2);
}

// Per-channel: the multiplier of channel c is input_scale[c] / output_scale
// in double; double(0.5f * 0.25f) / 0.5f = 0.25 and 0.5 * 0.75 / 0.5 = 0.75.
TEST(ExactRequantize, PerChannelMultipliers) {
  QuantizedMultiplier c0 = requantizeMultiplier(0.5 * 0.25, 0.5f);
  QuantizedMultiplier c1 = requantizeMultiplier(0.5 * 0.75, 0.5f);
  EXPECT_EQ(c0.multiplier, 1 << 30);
  EXPECT_EQ(c0.shift, -1);
  EXPECT_EQ(c1.multiplier, 1610612736);
  EXPECT_EQ(c1.shift, 0);
  // 10 * 0.25 = 2.5 -> 3 (TFLite); 10 * 0.75 = 7.5 -> 8.
  EXPECT_EQ(requantize(10, 0, c0, 0, -128, 127, RoundingRule::TFLite), 3);
  EXPECT_EQ(requantize(10, 0, c1, 0, -128, 127, RoundingRule::TFLite), 8);
}

// Fused RELU/RELU6 as clamps: with scale 0.05, zero point -128, the RELU6
// bound is round(6 / 0.05) - 128 = -8 and RELU's is the zero point.
TEST(ExactRequantize, ReluClampBounds) {
  int64_t relu6Max = quantizeFloat(6.0f, 0.05f, -128, -128, 127);
  int64_t reluMin = quantizeFloat(0.0f, 0.05f, -128, -128, 127);
  EXPECT_EQ(relu6Max, -8);
  EXPECT_EQ(reluMin, -128);
  QuantizedMultiplier m = quantizeMultiplier(0.5);
  // 300 * 0.5 - 128 = 22, clamped to the RELU6 range [-128, -8] -> -8.
  EXPECT_EQ(
      requantize(300, 0, m, -128, reluMin, relu6Max, RoundingRule::TFLite), -8);
}

TEST(ExactQuantizeFloat, RoundsHalfAwayAndClamps) {
  EXPECT_EQ(quantizeFloat(1.25f, 0.5f, 0, -128, 127), 3);   // 2.5 -> 3
  EXPECT_EQ(quantizeFloat(-1.25f, 0.5f, 0, -128, 127), -3); // -2.5 -> -3
  EXPECT_EQ(quantizeFloat(-1.25f, 0.5f, 10, 0, 255), 7);
  EXPECT_EQ(quantizeFloat(1000.0f, 0.5f, 0, -128, 127), 127);
  EXPECT_EQ(quantizeFloat(-1000.0f, 0.5f, 0, 0, 255), 0);
  EXPECT_EQ(quantizeFloat(std::nanf(""), 0.5f, 7, 0, 255), 7);
  EXPECT_EQ(quantizeFloat(1e30f, 1e-30f, 0, -128, 127), 127);
}

TEST(ExactDequantizeValue, ScaleTimesOffset) {
  EXPECT_EQ(dequantizeValue(130, 0.5f, 128), 1.0f);
  EXPECT_EQ(dequantizeValue(-128, 0.25f, 0), -32.0f);
  // The product is formed in double then rounded once: 2^24 + 1 is not a
  // float, so a float product would round the integer first.
  EXPECT_EQ(dequantizeValue((1 << 24) + 1, 0.75f, 0),
            static_cast<float>(0.75 * ((1 << 24) + 1)));
}

TEST(ExactLookupTable, HardSwishUnitScales) {
  // scale 1, zero point 0 (i8): f(3) = 3, f(2) = 2*5/6 = 1.67 -> 2,
  // f(1) = 4/6 -> 1, f(-1) = -2/6 -> 0, f(-3) = 0, f(127) = 127.
  auto table = buildLookupTable(true, 1.0f, 0, 1.0f, 0, hardSwish);
  EXPECT_EQ(table[3], 3);
  EXPECT_EQ(table[2], 2);
  EXPECT_EQ(table[1], 1);
  EXPECT_EQ(table[static_cast<uint8_t>(-1)], 0);
  EXPECT_EQ(table[static_cast<uint8_t>(-3)], 0);
  EXPECT_EQ(table[127], 127);
  EXPECT_EQ(table[static_cast<uint8_t>(-128)], 0);
}

TEST(ExactLookupTable, SigmoidU8) {
  // Input scale 1/16, zero point 128; output 1/256, zero point 0 (TFLite's
  // required uint8 logistic output). sigmoid(0) * 256 = 128; large inputs
  // give 256 -> 255; very negative ones 0.
  auto table = buildLookupTable(false, 1.0f / 16, 128, 1.0f / 256, 0, sigmoid);
  EXPECT_EQ(table[128], 128);
  EXPECT_EQ(table[255], 255);
  EXPECT_EQ(table[0], 0);
  // q = 144 -> x = 1: 256 / (1 + e^-1) = 187.14 -> 187.
  EXPECT_EQ(table[144], 187);
}

TEST(ExactRoundedAverage, HalvesAwayFromZero) {
  EXPECT_EQ(roundedAverage(5, 2), 3);
  EXPECT_EQ(roundedAverage(-5, 2), -3);
  EXPECT_EQ(roundedAverage(4, 3), 1);
  EXPECT_EQ(roundedAverage(-4, 3), -1);
  EXPECT_EQ(roundedAverage(0, 7), 0);
  EXPECT_EQ(roundedAverage(-3, 4), -1); // -0.75
}

TEST(ExactAdd, TFLiteArithmetic) {
  // Scales 0.5, 0.5 -> 1.0: twice_max = 1, input multipliers 0.5, output
  // multiplier 2^-20. 3 + 2 -> 1.5 + 1.0 = 2.5: (3 << 20) * 0.5 + (2 << 20)
  // * 0.5 = 2621440, * 2^-20 via SRDHM (1310720) and RDBP by 19 -> 2.5 -> 3.
  AddParams p = computeAddParams(0.5f, 0, 0.5f, 0, 1.0f, 0);
  EXPECT_EQ(p.output.multiplier, 1 << 30);
  EXPECT_EQ(p.output.shift, -19);
  EXPECT_EQ(addQuantized(3, 2, p, -128, 127), 3);
  EXPECT_EQ(addQuantized(-3, -2, p, -128, 127), -3);
  // Zero points: lhs 130 (zp 128) = 1.0, rhs 4 (zp 0) = 2.0; out zp 10 -> 13.
  AddParams q = computeAddParams(0.5f, 128, 0.5f, 0, 1.0f, 10);
  EXPECT_EQ(addQuantized(130, 4, q, 0, 255), 13);
  EXPECT_EQ(addQuantized(0, 0, q, 0, 255), 0); // -64 + 10 -> clamp 0
}

TEST(ExactMul, TFLiteArithmetic) {
  QuantizedMultiplier m = computeMulMultiplier(0.5f, 0.5f, 0.5f); // 0.5
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 0);
  EXPECT_EQ(mulQuantized(3, 1, 0, 0, m, 0, -128, 127), 2);   // 1.5 -> 2
  EXPECT_EQ(mulQuantized(-3, 1, 0, 0, m, 0, -128, 127), -1); // -1.5 -> -1
  EXPECT_EQ(mulQuantized(100, 100, 0, 0, m, 0, -128, 127), 127);
  // ui8 with zero points: (140-128) * (20-10) * 0.5 + 5 = 65.
  EXPECT_EQ(mulQuantized(140, 20, 128, 10, m, 5, 0, 255), 65);
}

// TFLite's LeakyReluPrepare computes input_scale * alpha / output_scale in
// float32; 0.1f * 0.1f / 0.1f in float is 0.100000001490116..., in double
// 0.0999999977648258..., which quantize to different Q31 multipliers
// (computed by hand with Python's float32 emulation: 1717987072 vs
// 1717986944, both with exponent -3).
TEST(ExactLeakyRelu, MultipliersInFloat) {
  LeakyReluParams p = computeLeakyReluParams(0.1f, 0.1f, 0.1f);
  EXPECT_EQ(p.alpha.multiplier, 1717987072);
  EXPECT_EQ(p.alpha.shift, -3);
  EXPECT_EQ(p.identity.multiplier, 1 << 30);
  EXPECT_EQ(p.identity.shift, 1);
}

TEST(ExactLeakyRelu, Values) {
  // Scales 1 -> 1, alpha 0.25 (exact): x >= 0 copied, x < 0 times 0.25:
  // -6 -> -1.5 -> SRDHM(-6, 2^30) = -3, RDBP(-3, 1) = -1.5 -> -2.
  LeakyReluParams p = computeLeakyReluParams(1.0f, 0.25f, 1.0f);
  EXPECT_EQ(leakyReluQuantized(5, 0, p, 0, -128, 127), 5);
  EXPECT_EQ(leakyReluQuantized(-6, 0, p, 0, -128, 127), -2);
  EXPECT_EQ(leakyReluQuantized(-128, 0, p, 0, -128, 127), -32);
  // Zero points: (10 - 20) * 0.25 + 3 = -2.5 + 3: SRDHM(-10, 2^30) = -5,
  // RDBP(-5, 1) = -3, + 3 = 0.
  EXPECT_EQ(leakyReluQuantized(10, 20, p, 3, -128, 127), 0);
}

TEST(ExactConcatenation, FloatRescaleAsTFLiteUint8) {
  // scale 0.5 -> 1.0 (float 0.5), bias -(-2) * 0.5 = 1: 5 * 0.5 + 1 = 3.5
  // -> 4, + 10 = 14; 0 -> 1 + 10 = 11.
  EXPECT_EQ(concatRescale(5, 0.5f, -2, 1.0f, 10, 0, 255), 14);
  EXPECT_EQ(concatRescale(0, 0.5f, -2, 1.0f, 10, 0, 255), 11);
  EXPECT_EQ(concatRescale(255, 2.0f, 0, 1.0f, 0, 0, 255), 255);
}

TEST(ExactCastFloatToInt, HalfToEvenAndSaturate) {
  EXPECT_EQ(castFloatToInt(2.5f, -128, 127), 2);
  EXPECT_EQ(castFloatToInt(3.5f, -128, 127), 4);
  EXPECT_EQ(castFloatToInt(-2.5f, -128, 127), -2);
  EXPECT_EQ(castFloatToInt(300.0f, -128, 127), 127);
  EXPECT_EQ(castFloatToInt(-1.0f, 0, 255), 0);
  EXPECT_EQ(castFloatToInt(std::nanf(""), -128, 127), 0);
}

} // namespace
