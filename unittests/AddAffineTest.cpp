//===- AddAffineTest.cpp - TFLite's ADD as one integer affine form --------===//
//
// fitAddAffine against addQuantized on every pair of stored operands, for
// random scales and zero points (ADD and SUB, int8 and uint8, both TFLite
// rules), MobileNet v2's ten residual ADDs, and the refusals.
//
//===----------------------------------------------------------------------===//

#include "QNN/Utils/QuantMath.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

using namespace mlir::qnn::math;

namespace {

/// The affine form as the lowering computes it: i32 products and sums
/// (checked against int64 here), an arithmetic shift, the clamp less the
/// zero point, then the zero point.
int64_t evaluate(const AddAffine &f, int64_t x, int64_t y, int64_t qmin,
                 int64_t qmax) {
  int64_t v = int64_t(f.a) * x + int64_t(f.c) * y;
  EXPECT_LE(std::abs(v), std::numeric_limits<int32_t>::max());
  v += f.d;
  EXPECT_GE(v, std::numeric_limits<int32_t>::min());
  EXPECT_LE(v, std::numeric_limits<int32_t>::max());
  int32_t shifted = static_cast<int32_t>(v) >> f.q;
  return std::clamp<int64_t>(shifted, qmin - f.zeroPoint, qmax - f.zeroPoint) +
         f.zeroPoint;
}

/// Every pair of stored values; false (with a failure recorded) at the
/// first difference.
bool matchesEveryPair(const AddAffine &f, const AddParams &p, RoundingRule rule,
                      bool isUnsigned) {
  int64_t qmin = isUnsigned ? 0 : -128, qmax = isUnsigned ? 255 : 127;
  for (int64_t x = qmin; x <= qmax; ++x)
    for (int64_t y = qmin; y <= qmax; ++y) {
      int64_t expected = addQuantized(x, y, p, qmin, qmax, rule);
      int64_t got = evaluate(f, x, y, qmin, qmax);
      if (got != expected) {
        ADD_FAILURE() << "x " << x << " y " << y << ": " << got << " against "
                      << expected << " (a " << f.a << " c " << f.c << " d "
                      << f.d << " q " << f.q << ")";
        return false;
      }
    }
  return true;
}

TEST(AddAffine, RandomAddsAndSubs) {
  std::mt19937_64 rng(20261201);
  std::uniform_real_distribution<double> exponent(-3.0, 3.0);
  std::uniform_int_distribution<int> zeroPoint(-128, 127);
  int fitted = 0, total = 0;
  for (int i = 0; i < 120; ++i) {
    float lhsScale = 0.02 * std::exp2(exponent(rng));
    float rhsScale = 0.02 * std::exp2(exponent(rng));
    float outScale = 0.02 * std::exp2(0.5 * exponent(rng) + 0.5);
    bool isUnsigned = i % 2;
    int shift = isUnsigned ? 128 : 0;
    int32_t lhsZp = zeroPoint(rng) + shift, rhsZp = zeroPoint(rng) + shift,
            outZp = zeroPoint(rng) + shift;
    bool subtract = i % 5 == 0;
    AddParams p = (subtract ? computeSubParams : computeAddParams)(
        lhsScale, lhsZp, rhsScale, rhsZp, outScale, outZp);
    RoundingRule rule =
        (i / 2) % 2 ? RoundingRule::TFLite : RoundingRule::TFLiteSingle;
    ++total;
    std::optional<AddAffine> f = fitAddAffine(
        p, rule, isUnsigned, isUnsigned ? 0 : -128, isUnsigned ? 255 : 127);
    if (!f)
      continue;
    ++fitted;
    if (!matchesEveryPair(*f, p, rule, isUnsigned))
      return;
  }
  // (398 of 400 in a longer run of this distribution.)
  EXPECT_GE(fitted * 100, total * 95) << fitted << "/" << total;
}

/// Equal scales put many sums on exact halves, where the rules round.
TEST(AddAffine, Ties) {
  for (RoundingRule rule : {RoundingRule::TFLite, RoundingRule::TFLiteSingle})
    for (float outScale : {0.02f, 0.04f, 0.01f}) {
      AddParams p = computeAddParams(0.02f, 3, 0.02f, -5, outScale, 1);
      std::optional<AddAffine> f = fitAddAffine(p, rule, false, -128, 127);
      ASSERT_TRUE(f.has_value()) << "output scale " << outScale;
      EXPECT_TRUE(matchesEveryPair(*f, p, rule, false));
    }
}

/// The residual ADDs of mobilenet_v2_quantized_1x3x224x224 (int8, single
/// rounding): every one has the form.
TEST(AddAffine, MobileNetV2) {
  struct Add {
    float lhsScale;
    int32_t lhsZp;
    float rhsScale;
    int32_t rhsZp;
    float outScale;
    int32_t outZp;
  };
  const Add adds[] = {{0.0270383805f, -3, 0.028132502f, -1, 0.0358424969f, -3},
                      {0.0217414033f, 14, 0.0194255598f, 17, 0.0276931245f, 1},
                      {0.0276931245f, 1, 0.0204826389f, 9, 0.0349583328f, 2},
                      {0.0194880608f, 18, 0.0148622086f, -3, 0.0240935516f, -9},
                      {0.0240935516f, -9, 0.0136746522f, 9, 0.0232478082f, 0},
                      {0.0232478082f, 0, 0.0240435302f, 3, 0.0297073405f, 0},
                      {0.0201518405f, 7, 0.0179975368f, 11, 0.0238446929f, -3},
                      {0.0238446929f, -3, 0.0337923691f, -5, 0.0347863734f, 1},
                      {0.0367315933f, -2, 0.034003377f, -5, 0.0581924058f, -18},
                      {0.0581924058f, -18, 0.0831621363f, 7, 0.123036265f, 8}};
  for (const Add &a : adds) {
    AddParams p = computeAddParams(a.lhsScale, a.lhsZp, a.rhsScale, a.rhsZp,
                                   a.outScale, a.outZp);
    std::optional<AddAffine> f =
        fitAddAffine(p, RoundingRule::TFLiteSingle, false, -128, 127);
    ASSERT_TRUE(f.has_value());
    EXPECT_TRUE(matchesEveryPair(*f, p, RoundingRule::TFLiteSingle, false));
  }
}

TEST(AddAffine, Refusals) {
  AddParams p = computeAddParams(0.02f, 0, 0.03f, 0, 0.04f, 0);
  // Only TFLite's rules.
  EXPECT_FALSE(fitAddAffine(p, RoundingRule::Upward, false, -128, 127));
  EXPECT_FALSE(fitAddAffine(p, RoundingRule::ToNearest, false, -128, 127));
  // No exact form: a slope of 0.06 beside one of 2.5 (found by search).
  AddParams none = computeAddParams(0.00388743123f, -57, 0.157561243f, 38,
                                    0.0633554235f, 50);
  EXPECT_FALSE(fitAddAffine(none, RoundingRule::TFLite, false, -128, 127));
}

} // namespace
