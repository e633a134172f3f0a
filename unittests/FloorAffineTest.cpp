//===- FloorAffineTest.cpp - the float form of TFLite's rescale -----------===//
//
// fitRescaleFloorAffine against multiplyByQuantizedMultiplier on every input
// near each output level's first one and on random inputs, for random
// multipliers, both TFLite rules and the clamps of 8-bit outputs (with and
// without ReLU); and the two machine forms of its floor: a float64 fma then
// floor (the portable lowering) and a float32 fma rounded down (the AVX-512
// kernels' {rd-sae}) give evaluateFloorAffine's exact integers.
//
//===----------------------------------------------------------------------===//

#include "QNN/Utils/QuantMath.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace mlir::qnn::math;

namespace {

struct Case {
  QuantizedMultiplier m;
  RoundingRule rule;
  int64_t lo, hi; // relative to the output zero point
};

/// The float32 fma rounded down, as vfmadd231ps {rd-sae} computes it
/// (volatile: computed under the rounding mode set around it).
int64_t floatRoundDown(int64_t x, const FloorAffine &f) {
  x = std::clamp(x, -kFloorAffineBound, kFloorAffineBound);
  int previous = std::fegetround();
  std::fesetround(FE_DOWNWARD);
  volatile float xf = static_cast<float>(x);
  volatile float t =
      std::fmaf(xf, f.slope, x < 0 ? f.negativeOffset : f.offset);
  std::fesetround(previous);
  return static_cast<int64_t>(std::floor(t));
}

int64_t doubleFloor(int64_t x, const FloorAffine &f) {
  x = std::clamp(x, -kFloorAffineBound, kFloorAffineBound);
  double t = std::fma(static_cast<double>(x), static_cast<double>(f.slope),
                      static_cast<double>(x < 0 ? f.negativeOffset : f.offset));
  return static_cast<int64_t>(std::floor(t));
}

/// Checks a fit on the inputs near every level change and on random ones;
/// returns false (with a failure recorded) at the first difference.
bool checkFit(const Case &c, const FloorAffine &f, std::mt19937_64 &rng) {
  auto expected = [&](int64_t x) {
    return std::clamp<int64_t>(
        multiplyByQuantizedMultiplier(static_cast<int32_t>(x), c.m, c.rule),
        c.lo, c.hi);
  };
  auto check = [&](int64_t x) {
    int64_t exact = evaluateFloorAffine(x, f);
    int64_t got = std::clamp(exact, c.lo, c.hi);
    EXPECT_EQ(got, expected(x))
        << "x " << x << " multiplier " << c.m.multiplier << " shift "
        << c.m.shift << " slope " << f.slope << " offsets " << f.offset << " "
        << f.negativeOffset;
    EXPECT_EQ(doubleFloor(x, f), exact) << "float64 form, x " << x;
    EXPECT_EQ(floatRoundDown(x, f), exact) << "float32 form, x " << x;
    return got == expected(x);
  };
  // Every level change of the expected function within the clamp's range,
  // found by bisection, and its neighbours.
  const int64_t bound = kFloorAffineBound;
  for (int64_t k = expected(-bound) + 1; k <= expected(bound); ++k) {
    int64_t low = -bound, high = bound;
    while (high - low > 1) {
      int64_t mid = low + (high - low) / 2;
      (expected(mid) >= k ? high : low) = mid;
    }
    for (int64_t x = high - 3; x <= high + 3; ++x)
      if (!check(x))
        return false;
  }
  std::uniform_int_distribution<int64_t> any(
      std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int64_t> near(-(1 << 20), 1 << 20);
  for (int i = 0; i < 2000; ++i)
    if (!check(any(rng)) || !check(near(rng)))
      return false;
  for (int64_t x :
       {-bound - 1, -bound, int64_t(-2), int64_t(-1), int64_t(0), int64_t(1),
        bound, bound + 1, int64_t(std::numeric_limits<int32_t>::min()),
        int64_t(std::numeric_limits<int32_t>::max())})
    if (!check(x))
      return false;
  return true;
}

TEST(FloorAffine, EvaluatesExactly) {
  FloorAffine f{0.25f, 0.5f, 0.375f};
  EXPECT_EQ(evaluateFloorAffine(6, f), 2);   // 2.0
  EXPECT_EQ(evaluateFloorAffine(5, f), 1);   // 1.75
  EXPECT_EQ(evaluateFloorAffine(-2, f), -1); // -0.125
  EXPECT_EQ(evaluateFloorAffine(-6, f), -2); // -1.125
  // Clamped to 2^24 first.
  EXPECT_EQ(evaluateFloorAffine(int64_t(1) << 30, f), (1 << 22));
}

TEST(FloorAffine, ZeroMultiplier) {
  auto fit = fitRescaleFloorAffine({0, 0}, RoundingRule::TFLite, -5, 7);
  ASSERT_TRUE(fit.has_value());
  for (int64_t x : {-100000, 0, 12345})
    EXPECT_EQ(std::clamp<int64_t>(evaluateFloorAffine(x, *fit), -5, 7), 0);
}

TEST(FloorAffine, RefusesLeftShiftsAndNegativeMultipliers) {
  EXPECT_FALSE(
      fitRescaleFloorAffine({1 << 30, 1}, RoundingRule::TFLite, -128, 127));
  EXPECT_FALSE(
      fitRescaleFloorAffine({-(1 << 30), 0}, RoundingRule::TFLite, -128, 127));
  EXPECT_FALSE(
      fitRescaleFloorAffine({1 << 30, -3}, RoundingRule::Upward, -128, 127));
}

TEST(FloorAffine, RefusesLevelsBeyondTheBound) {
  // 2^-28: the output reaches 1 only past 2^27.
  EXPECT_FALSE(
      fitRescaleFloorAffine({1 << 30, -27}, RoundingRule::TFLite, -128, 127));
}

/// Random layers: ReLU outputs (levels from the zero point up) fit almost
/// always with one offset; outputs on both sides of the zero point need the
/// second one. Every fit is checked.
TEST(FloorAffine, RandomRescales) {
  std::mt19937_64 rng(20261201);
  // Multipliers of 2^-11 to 1 (convolutions: about 2^-10 to 2^-3).
  std::uniform_real_distribution<double> exponent(-11.0, -0.05);
  std::uniform_int_distribution<int64_t> zeroPoint(-128, 127);
  int fitted[2] = {0, 0}, total[2] = {0, 0}, split = 0;
  for (int i = 0; i < 600; ++i) {
    Case c;
    c.m = quantizeMultiplier(std::exp2(exponent(rng)));
    c.rule = i % 2 ? RoundingRule::TFLite : RoundingRule::TFLiteSingle;
    int64_t zp = zeroPoint(rng);
    bool relu = i % 3 == 0;
    c.lo = (relu ? zp : -128) - zp;
    c.hi = 127 - zp;
    if (c.lo > c.hi)
      continue;
    ++total[relu];
    std::optional<FloorAffine> fit =
        fitRescaleFloorAffine(c.m, c.rule, c.lo, c.hi);
    if (!fit)
      continue;
    ++fitted[relu];
    split += fit->splitsOnSign();
    if (!checkFit(c, *fit, rng))
      return;
  }
  // (Counts for the record; the bounds are loose.)
  EXPECT_GE(fitted[1] * 100, total[1] * 97) << fitted[1] << "/" << total[1];
  EXPECT_GE(fitted[0] * 100, total[0] * 95) << fitted[0] << "/" << total[0];
  EXPECT_GT(split, 0);
}

} // namespace

namespace {

/// A channel whose accumulators stay small (its weights bound them): a
/// multiplier of MobileNet v2 (a 1x1 expansion's, near 2^-16, RELU6 to 127
/// levels, which spread over 4 million inputs) has no fit over all of
/// int32, and one over the inputs within its reach, exact there.
TEST(FloorAffine, BoundedReach) {
  QuantizedMultiplier m{1325045016, -15};
  for (RoundingRule rule : {RoundingRule::TFLite, RoundingRule::TFLiteSingle}) {
    EXPECT_FALSE(fitRescaleFloorAffine(m, rule, 0, 127));
    const int64_t reach = 1000000;
    std::optional<FloorAffine> fit =
        fitRescaleFloorAffine(m, rule, 0, 127, reach);
    ASSERT_TRUE(fit.has_value());
    for (int64_t x = -reach; x <= reach; ++x) {
      int64_t expected = std::clamp<int64_t>(
          multiplyByQuantizedMultiplier(static_cast<int32_t>(x), m, rule), 0,
          127);
      ASSERT_EQ(std::clamp<int64_t>(evaluateFloorAffine(x, *fit), 0, 127),
                expected)
          << "x " << x;
    }
  }
}

} // namespace
