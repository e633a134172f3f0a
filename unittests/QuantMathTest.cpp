//===- QuantMathTest.cpp - hand-computed cases of the arithmetic ----------===//
//
// Each expectation is computed by hand from the definitions in TFLite's
// reference kernels and gemmlowp's fixed-point header (see docs/Arithmetic.md),
// not by running the implementation.
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

TEST(QuantizeMultiplier, PowersOfTwoAndRenormalisation) {
  QuantizedMultiplier half = quantizeMultiplier(0.5);
  EXPECT_EQ(half.multiplier, 1 << 30);
  EXPECT_EQ(half.shift, 0);
  QuantizedMultiplier one = quantizeMultiplier(1.0);
  EXPECT_EQ(one.multiplier, 1 << 30);
  EXPECT_EQ(one.shift, 1);
  QuantizedMultiplier threeQuarters = quantizeMultiplier(0.75);
  EXPECT_EQ(threeQuarters.multiplier, 1610612736);
  EXPECT_EQ(threeQuarters.shift, 0);
  // A significand that rounds up to 2^31 is halved, the exponent bumped.
  QuantizedMultiplier almostOne = quantizeMultiplier(1.0 - 1e-12);
  EXPECT_EQ(almostOne.multiplier, 1 << 30);
  EXPECT_EQ(almostOne.shift, 1);
  QuantizedMultiplier three = quantizeMultiplier(3.0);
  EXPECT_EQ(three.multiplier, 1610612736);
  EXPECT_EQ(three.shift, 2);
}

TEST(QuantizeMultiplier, TinyMultipliersFlushToZero) {
  QuantizedMultiplier tiny = quantizeMultiplier(std::ldexp(1.0, -33));
  EXPECT_EQ(tiny.multiplier, 0);
  EXPECT_EQ(tiny.shift, 0);
  // 2^-32 = 0.5 * 2^-31 still fits (exponent -31).
  QuantizedMultiplier smallest = quantizeMultiplier(std::ldexp(1.0, -32));
  EXPECT_EQ(smallest.multiplier, 1 << 30);
  EXPECT_EQ(smallest.shift, -31);
  EXPECT_EQ(quantizeMultiplier(0.0).multiplier, 0);
}

TEST(DoublingHighMul, RoundsHalvesTowardPositiveInfinity) {
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, kMin), kMax);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1 << 30, 1 << 30), 1 << 29);
  // x * 2^30 * 2 / 2^32 = x / 2: 0.5 -> 1, -0.5 -> 0, 1.5 -> 2, -1.5 -> -1.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1, 1 << 30), 1);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-1, 1 << 30), 0);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(3, 1 << 30), 2);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-3, 1 << 30), -1);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMax, kMax), kMax - 1);
}

TEST(RoundingDivideByPOT, RoundsHalvesAwayFromZero) {
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3);
  EXPECT_EQ(roundingDivideByPOT(4, 3), 1);
  EXPECT_EQ(roundingDivideByPOT(-4, 3), -1);
  EXPECT_EQ(roundingDivideByPOT(3, 3), 0);
  EXPECT_EQ(roundingDivideByPOT(-3, 3), 0);
  EXPECT_EQ(roundingDivideByPOT(kMin, 31), -1);
  EXPECT_EQ(roundingDivideByPOT(kMax, 31), 1);
  EXPECT_EQ(roundingDivideByPOT(17, 0), 17);
}

TEST(Rescale, DoubleVersusSingleRounding) {
  QuantizedMultiplier sixteenth = quantizeMultiplier(0.0625);
  // TFLite: 7 * 2^-4 = 0.4375 rounds to 1 (two roundings).
  EXPECT_EQ(rescale(7, sixteenth, RoundingRule::TFLite), 1);
  EXPECT_EQ(rescale(7, sixteenth, RoundingRule::Upward), 0);
  EXPECT_EQ(rescale(7, sixteenth, RoundingRule::ToNearest), 0);
  // Exactly -0.5.
  EXPECT_EQ(rescale(-8, sixteenth, RoundingRule::TFLite), -1);
  EXPECT_EQ(rescale(-8, sixteenth, RoundingRule::Upward), 0);
  EXPECT_EQ(rescale(-8, sixteenth, RoundingRule::ToNearest), -1);
  // Exactly +0.5.
  EXPECT_EQ(rescale(8, sixteenth, RoundingRule::TFLite), 1);
  EXPECT_EQ(rescale(8, sixteenth, RoundingRule::Upward), 1);
  EXPECT_EQ(rescale(8, sixteenth, RoundingRule::ToNearest), 1);
}

TEST(Rescale, LeftShiftWrapsUnderTFLiteAndSaturatesUnderTVM) {
  QuantizedMultiplier four = quantizeMultiplier(4.0); // 2^30, shift 3
  // (2^29 << 3) wraps to 0 in 32 bits.
  EXPECT_EQ(rescale(1 << 29, four, RoundingRule::TFLite), 0);
  EXPECT_EQ(rescale(1 << 29, four, RoundingRule::Upward), kMax);
  EXPECT_EQ(rescale(-(1 << 29), four, RoundingRule::ToNearest), kMin);
  EXPECT_EQ(rescale(1000, four, RoundingRule::TFLite), 4000);
}

TEST(Requantize, ZeroPointsAndClamping) {
  QuantizedMultiplier one = quantizeMultiplier(1.0);
  EXPECT_EQ(requantize(0, 128, one, 0, -128, 127, RoundingRule::TFLite), -128);
  EXPECT_EQ(requantize(255, 128, one, 0, -128, 127, RoundingRule::TFLite), 127);
  QuantizedMultiplier eighth = quantizeMultiplier(0.125);
  EXPECT_EQ(requantize(1000, 0, eighth, -128, -128, 127, RoundingRule::TFLite),
            -3);
  EXPECT_EQ(requantize(4000, 0, eighth, 0, 0, 255, RoundingRule::TFLite), 255);
}

TEST(QuantizeFloat, TFLiteAffineQuantize) {
  EXPECT_EQ(quantizeFloat(0.25f, 0.5f, -3, -128, 127), -2);
  EXPECT_EQ(quantizeFloat(-0.25f, 0.5f, -3, -128, 127), -4);
  EXPECT_EQ(quantizeFloat(1e30f, 0.5f, 0, -128, 127), 127);
  EXPECT_EQ(quantizeFloat(-1e30f, 0.5f, 0, 0, 255), 0);
  EXPECT_EQ(quantizeFloat(std::nanf(""), 0.5f, 7, -128, 127), 7);
  EXPECT_EQ(quantizeFloat(1.0f, 0.0078125f, 128, 0, 255), 255);
  EXPECT_EQ(quantizeFloat(-1.0f, 0.0078125f, 128, 0, 255), 0);
}

TEST(Dequantize, Float32Product) {
  EXPECT_EQ(dequantizeValue(-3, 0.5f, -3), 0.0f);
  EXPECT_EQ(dequantizeValue(127, 0.5f, -3), 65.0f);
  EXPECT_EQ(dequantizeValue(0, 0.0078125f, 128), -1.0f);
}

TEST(LookupTable, SigmoidAndHardSwish) {
  auto sig = buildLookupTable(true, 0.0625f, 0, 0.00390625f, -128, sigmoid);
  EXPECT_EQ(sig[0], 0);   // sigmoid(0) = 0.5
  EXPECT_EQ(sig[16], 59); // sigmoid(1) * 256 = 187.15
  EXPECT_EQ(sig[static_cast<uint8_t>(-128)], -128);
  EXPECT_EQ(sig[127], 127);
  auto hs = buildLookupTable(true, 0.1f, 0, 0.1f, 0, hardSwish);
  EXPECT_EQ(hs[30], 30);
  EXPECT_EQ(hs[static_cast<uint8_t>(-30)], 0);
  EXPECT_EQ(hs[10], 7);
  EXPECT_EQ(hs[static_cast<uint8_t>(-10)], -3);
  auto u8 = buildLookupTable(false, 0.0625f, 128, 0.00390625f, 0, sigmoid);
  EXPECT_EQ(u8[128], 128);
  EXPECT_EQ(u8[0], 0);
  EXPECT_EQ(u8[255], 255);
}

TEST(Average, HalvesAwayFromZero) {
  EXPECT_EQ(roundedAverage(11, 4), 3);
  EXPECT_EQ(roundedAverage(-11, 4), -3);
  EXPECT_EQ(roundedAverage(10, 4), 3);
  EXPECT_EQ(roundedAverage(-10, 4), -3);
  EXPECT_EQ(roundedAverage(9, 4), 2);
}

TEST(Add, TFLiteArithmetic) {
  AddParams p = computeAddParams(0.5f, 0, 0.5f, 0, 1.0f, 0);
  EXPECT_EQ(p.output.multiplier, 1 << 30);
  EXPECT_EQ(p.output.shift, -19);
  EXPECT_EQ(addQuantized(3, 0, p, -128, 127), 2);   // 1.5 -> 2
  EXPECT_EQ(addQuantized(-3, 0, p, -128, 127), -2); // -1.5 -> -2
  EXPECT_EQ(addQuantized(127, 127, p, -128, 127), 127);
}

// TFLITE_SINGLE_ROUNDING=1: one rounding of x * m / 2^(31 - shift), halves
// toward +infinity.
TEST(SingleRounding, RoundsOnceHalvesUp) {
  QuantizedMultiplier sixteenth{1 << 30, -3}; // 2^-4
  // 7/16 = 0.4375: single rounding gives 0; double rounding first rounds
  // 3.5 to 4 and then 4/8 = 0.5 away from zero to 1.
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(7, sixteenth), 0);
  EXPECT_EQ(multiplyByQuantizedMultiplier(7, sixteenth), 1);
  QuantizedMultiplier quarter{1 << 30, -1};
  // -6/4 = -1.5: halves go up under single rounding, away from zero under
  // RoundingDivideByPOT.
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(-6, quarter), -1);
  EXPECT_EQ(multiplyByQuantizedMultiplier(-6, quarter), -2);
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(6, quarter), 2);
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(-5, quarter), -1);
  // A left shift: 3.0 = 0.75 * 2^2.
  QuantizedMultiplier three{1610612736, 2};
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(9, three), 27);
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(-9, three), -27);
  // Out-of-range products saturate instead of wrapping.
  QuantizedMultiplier huge{1 << 30, 30}; // 2^29
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(1 << 20, huge), kMax);
  EXPECT_EQ(multiplyByQuantizedMultiplierSingleRounding(-(1 << 20), huge),
            kMin);
  // rescale() and requantize() select the rule.
  EXPECT_EQ(rescale(7, sixteenth, RoundingRule::TFLiteSingle), 0);
  EXPECT_EQ(requantize(7 + 5, 5, sixteenth, -3, -128, 127,
                       RoundingRule::TFLiteSingle),
            -3);
  EXPECT_EQ(requantize(7 + 5, 5, sixteenth, -3, -128, 127,
                       RoundingRule::TFLite),
            -2);
}

TEST(Add, SingleRounding) {
  AddParams p = computeAddParams(0.5f, 0, 0.5f, 0, 1.0f, 0);
  // The sum (-1.5 in output units) rounds up once: -1 (double: -2).
  EXPECT_EQ(addQuantized(-3, 0, p, -128, 127, RoundingRule::TFLiteSingle), -1);
  EXPECT_EQ(addQuantized(3, 0, p, -128, 127, RoundingRule::TFLiteSingle), 2);
}

TEST(Mul, SingleRounding) {
  QuantizedMultiplier quarter{1 << 30, -1};
  EXPECT_EQ(mulQuantized(-6, 1, 0, 0, quarter, 0, -128, 127,
                         RoundingRule::TFLiteSingle),
            -1);
  EXPECT_EQ(mulQuantized(-6, 1, 0, 0, quarter, 0, -128, 127,
                         RoundingRule::TFLite),
            -2);
}

TEST(Multiplier, FixedPointRange) {
  EXPECT_TRUE(isRepresentableMultiplier(0.0));
  EXPECT_TRUE(isRepresentableMultiplier(1000.0));
  EXPECT_FALSE(isRepresentableMultiplier(std::ldexp(1.0, 29)));
  EXPECT_FALSE(isRepresentableMultiplier(
      std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(isRepresentableMultiplier(std::nan("")));
}

TEST(LeakyRelu, TFLiteArithmetic) {
  LeakyReluParams p = computeLeakyReluParams(0.5f, 0.25f, 0.5f);
  EXPECT_EQ(leakyReluQuantized(10, 0, p, 0, -128, 127), 10);
  EXPECT_EQ(leakyReluQuantized(-10, 0, p, 0, -128, 127), -3);
  EXPECT_EQ(leakyReluQuantized(-6, 0, p, 0, -128, 127), -2);
}

} // namespace
