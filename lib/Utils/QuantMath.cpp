//===- QuantMath.cpp - the one definition of quantized arithmetic ---------===//

#include "QNN/Utils/QuantMath.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace mlir::qnn::math {

using llvm::SmallVector;

QuantizedMultiplier quantizeMultiplier(double real) {
  assert(std::isfinite(real) && "multiplier must be finite");
  QuantizedMultiplier result;
  if (real == 0.0)
    return result;
  int exponent = 0;
  double significand = std::frexp(real, &exponent);
  int64_t fixed = static_cast<int64_t>(std::round(significand * (1LL << 31)));
  assert(fixed <= (1LL << 31));
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++exponent;
  }
  if (exponent < -31) {
    // Every bit would be shifted out: TFLite flushes such multipliers to 0.
    exponent = 0;
    fixed = 0;
  }
  result.multiplier = static_cast<int32_t>(fixed);
  result.shift = exponent;
  return result;
}

bool isRepresentableMultiplier(double real) {
  return std::isfinite(real) && std::fabs(real) < 0x1p29;
}

int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  bool overflow = a == b && a == std::numeric_limits<int32_t>::min();
  int64_t product = static_cast<int64_t>(a) * static_cast<int64_t>(b);
  int32_t nudge = product >= 0 ? (1 << 30) : (1 - (1 << 30));
  // C++ division truncates toward zero, exactly as gemmlowp relies on.
  int32_t high = static_cast<int32_t>((product + nudge) / (1LL << 31));
  return overflow ? std::numeric_limits<int32_t>::max() : high;
}

int32_t roundingDivideByPOT(int32_t x, int exponent) {
  assert(exponent >= 0 && exponent <= 31);
  int64_t mask = (int64_t(1) << exponent) - 1;
  int64_t remainder = static_cast<int64_t>(x) & mask;
  int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((static_cast<int64_t>(x) >> exponent) +
                              (remainder > threshold ? 1 : 0));
}

int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m) {
  int leftShift = m.shift > 0 ? m.shift : 0;
  int rightShift = m.shift > 0 ? 0 : -m.shift;
  // TFLite computes x * (1 << left_shift) in int32; wrap like its binary.
  int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(x)
                                         << static_cast<uint32_t>(leftShift));
  return roundingDivideByPOT(
      saturatingRoundingDoublingHighMul(shifted, m.multiplier), rightShift);
}

int32_t multiplyByQuantizedMultiplierSingleRounding(int32_t x,
                                                    QuantizedMultiplier m) {
  assert(m.shift <= 30 && "multiplier without a fixed-point form");
  // Exponents below -31 were flushed to a zero multiplier.
  const int totalShift = 31 - m.shift;
  const int64_t round = int64_t(1) << (totalShift - 1);
  int64_t result =
      (static_cast<int64_t>(x) * static_cast<int64_t>(m.multiplier) + round) >>
      totalShift;
  return static_cast<int32_t>(
      std::clamp<int64_t>(result, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m,
                                      RoundingRule rule) {
  assert((rule == RoundingRule::TFLite || rule == RoundingRule::TFLiteSingle) &&
         "TFLite's kernels round with one of the two TFLite rules");
  return rule == RoundingRule::TFLiteSingle
             ? multiplyByQuantizedMultiplierSingleRounding(x, m)
             : multiplyByQuantizedMultiplier(x, m);
}

int32_t rescale(int64_t x, QuantizedMultiplier m, RoundingRule rule) {
  if (rule == RoundingRule::TFLite || rule == RoundingRule::TFLiteSingle)
    return multiplyByQuantizedMultiplier(static_cast<int32_t>(x), m, rule);
  int leftShift = m.shift > 0 ? m.shift : 0;
  int rightShift = 31 + (m.shift > 0 ? 0 : -m.shift);
  // |x| < 2^33 and shift <= 30 after a Q31 multiplier of a finite double is
  // not guaranteed, so do the product in 128 bits.
  __int128 product = static_cast<__int128>(x) * (__int128(1) << leftShift) *
                     static_cast<__int128>(m.multiplier);
  __int128 round = __int128(1) << (rightShift - 1);
  if (rule == RoundingRule::ToNearest && product < 0)
    round -= 1;
  __int128 shifted = (product + round) >> rightShift;
  if (shifted > std::numeric_limits<int32_t>::max())
    return std::numeric_limits<int32_t>::max();
  if (shifted < std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(shifted);
}

namespace {
using Int128 = __int128;

/// A float as n * 2^-q with an odd n (or 0).
struct Dyadic {
  int64_t n = 0;
  int q = 0;
};

Dyadic toDyadic(float v) {
  if (v == 0.0f)
    return {};
  int e = 0;
  float fraction = std::frexp(v, &e);
  Dyadic d{static_cast<int64_t>(std::ldexp(fraction, 24)), 24 - e};
  while (d.n % 2 == 0) {
    d.n /= 2;
    --d.q;
  }
  return d;
}

/// The real multiplier m stands for: multiplier * 2^(shift - 31).
double realMultiplier(QuantizedMultiplier m) {
  return std::ldexp(static_cast<double>(m.multiplier), m.shift - 31);
}

/// floor(a / 2^q) for q >= 0.
Int128 floorShift(Int128 a, int q) {
  Int128 p = Int128(1) << q;
  Int128 quotient = a / p;
  return (a % p != 0 && a < 0) ? quotient - 1 : quotient;
}

/// The smallest n * 2^-q >= lo / 2^q (lo an integer) that is a float: n
/// a multiple of 2^j with |n / 2^j| < 2^24.
Int128 roundUpToFloat(Int128 lo) {
  Int128 magnitude = lo < 0 ? -lo : lo;
  int bits = 0;
  while (bits < 126 && (Int128(1) << bits) <= magnitude)
    ++bits;
  if (bits <= 24)
    return lo;
  int j = bits - 24;
  return (floorShift(lo - 1, j) + 1) * (Int128(1) << j);
}
} // namespace

int64_t evaluateFloorAffine(int64_t x, const FloorAffine &f) {
  x = std::clamp(x, -kFloorAffineBound, kFloorAffineBound);
  Dyadic s = toDyadic(f.slope);
  Dyadic o = toDyadic(x < 0 ? f.negativeOffset : f.offset);
  int q = std::max({s.q, o.q, 0});
  assert(q - s.q < 64 && q - o.q < 96 && "parameters out of scale");
  Int128 scaled = Int128(x) * s.n * (Int128(1) << (q - s.q)) +
                  Int128(o.n) * (Int128(1) << (q - o.q));
  return static_cast<int64_t>(floorShift(scaled, q));
}

std::optional<FloorAffine> fitRescaleFloorAffine(QuantizedMultiplier m,
                                                 RoundingRule rule, int64_t lo,
                                                 int64_t hi, int64_t reach) {
  if (m.shift > 0 || m.multiplier < 0 || lo > hi ||
      (rule != RoundingRule::TFLite && rule != RoundingRule::TFLiteSingle))
    return std::nullopt;
  // Monotone over all of int32 (no left shift, a non-negative multiplier).
  auto level = [&](int64_t x) {
    return std::clamp<int64_t>(
        multiplyByQuantizedMultiplier(static_cast<int32_t>(x), m, rule), lo,
        hi);
  };
  const int64_t bound = std::clamp<int64_t>(reach, 0, kFloorAffineBound);
  int64_t first = level(-bound), last = level(bound);
  // Inputs beyond the clamp (if any can occur) must not reach other levels.
  if (reach > kFloorAffineBound &&
      (level(std::numeric_limits<int32_t>::min()) != first ||
       level(std::numeric_limits<int32_t>::max()) != last))
    return std::nullopt;
  double real = realMultiplier(m);
  // The constraints: at x, x * slope + offset(x) >= k (atLeast) or < k.
  struct Constraint {
    int64_t x, k;
    bool atLeast;
  };
  std::vector<Constraint> constraints;
  if (first > lo)
    constraints.push_back({-bound, first, true});
  if (last < hi)
    constraints.push_back({bound, last + 1, false});
  // The first input of each level above `first`: a step of about 1 / real
  // from the previous level's, then doubling steps and a bisection.
  int64_t step = real > 0 ? static_cast<int64_t>(std::min(
                                1.0 / real, static_cast<double>(bound)))
                          : bound;
  int64_t below = -bound; // level(below) < k
  for (int64_t k = first + 1; k <= last; ++k) {
    int64_t low = below,
            high = std::min(bound, below + std::max<int64_t>(1, step - 1));
    int64_t grow = 1;
    while (level(high) < k) {
      low = high;
      high = std::min(bound, high + grow);
      grow *= 2;
    }
    while (high - low > 1) {
      int64_t mid = low + (high - low) / 2;
      (level(mid) >= k ? high : low) = mid;
    }
    constraints.push_back({high, k, true});
    constraints.push_back({high - 1, k, false});
    below = high - 1;
  }
  // The ends of each sign's half: a split fit takes its offsets from the
  // constraints of one sign each, so the level at 0 (where it began below
  // 0) and at -1 (where the next one begins above -1) bound them too.
  // (Redundant for one offset; the level changes at 0 already give them.)
  if (bound > 0) {
    if (level(0) > lo)
      constraints.push_back({0, level(0), true});
    if (level(-1) < hi)
      constraints.push_back({-1, level(-1) + 1, false});
  }
  const Int128 none = Int128(1) << 120;
  // The fit of `slope`: one offset, or (`split`) one per sign of x.
  auto tryFit = [&](float slope, bool split) -> std::optional<FloorAffine> {
    Dyadic s = toDyadic(slope);
    int q = std::max(s.q, 0);
    Int128 sn = Int128(s.n) * (Int128(1) << (q - s.q));
    // offset * 2^q in [lower, upper), per sign of x.
    Int128 lower[2] = {-none, -none}, upper[2] = {none, none};
    for (const Constraint &c : constraints) {
      Int128 v = Int128(c.k) * (Int128(1) << q) - Int128(c.x) * sn;
      int side = c.x < 0 ? 1 : 0;
      if (c.atLeast)
        lower[side] = std::max(lower[side], v);
      else
        upper[side] = std::min(upper[side], v);
    }
    if (!split) {
      lower[0] = lower[1] = std::max(lower[0], lower[1]);
      upper[0] = upper[1] = std::min(upper[0], upper[1]);
    }
    Int128 chosen[2];
    for (int side = 0; side < 2; ++side) {
      Int128 n = roundUpToFloat(lower[side] == -none ? Int128(0) : lower[side]);
      if (n >= upper[side])
        return std::nullopt;
      chosen[side] = n;
    }
    // |x * slope + offset| < 2^24 for |x| <= bound (float32 floors it
    // exactly) and < 2^(53 - q) (a float64 fma cannot round it onto the
    // next integer: its error stays below the 2^-q grid).
    // Each sign's values are monotone in x: their ends, x = 0 and -1
    // included, bound them.
    Int128 limit = std::min(Int128(1) << (q + 24), Int128(1) << 53);
    for (Int128 end : {Int128(bound) * sn + chosen[0], chosen[0],
                       -Int128(bound) * sn + chosen[1], -sn + chosen[1]})
      if (end >= limit || -end >= limit)
        return std::nullopt;
    auto toFloat = [&](Int128 n) {
      return static_cast<float>(std::ldexp(static_cast<double>(n), -q));
    };
    return FloorAffine{slope, toFloat(chosen[0]), toFloat(chosen[1])};
  };
  // The float32 slopes nearest the real multiplier first; one offset where
  // one of the nearest few fits, else the first split fit.
  float nearest = static_cast<float>(real);
  SmallVector<float, 33> slopes = {nearest};
  for (float up = nearest, down = nearest; slopes.size() < 33;) {
    up = std::nextafter(up, std::numeric_limits<float>::infinity());
    down = std::nextafter(down, 0.0f);
    slopes.push_back(up);
    if (down > 0.0f)
      slopes.push_back(down);
  }
  if (real == 0.0)
    slopes = {0.0f};
  std::optional<FloorAffine> splitFit;
  for (auto [i, slope] : llvm::enumerate(slopes)) {
    if (auto fit = tryFit(slope, /*split=*/false))
      return fit;
    if (!splitFit)
      splitFit = tryFit(slope, /*split=*/true);
    if (splitFit && i >= 4)
      return splitFit;
  }
  return splitFit;
}

QuantizedMultiplier requantizeMultiplier(double inputScale, float outputScale) {
  return quantizeMultiplier(inputScale / static_cast<double>(outputScale));
}

int64_t requantize(int64_t x, int32_t inputZeroPoint, QuantizedMultiplier m,
                   int32_t outputZeroPoint, int64_t qmin, int64_t qmax,
                   RoundingRule rule) {
  int64_t centered = x - inputZeroPoint;
  if (rule == RoundingRule::TFLite || rule == RoundingRule::TFLiteSingle)
    centered = static_cast<int32_t>(centered);
  int64_t y =
      static_cast<int64_t>(rescale(centered, m, rule)) + outputZeroPoint;
  return std::clamp(y, qmin, qmax);
}

float onnxRequantizeFactor(double inputScale, float outputScale) {
  return static_cast<float>(
      static_cast<double>(static_cast<float>(inputScale)) /
      static_cast<double>(outputScale));
}

int64_t requantizeONNX(int64_t x, int32_t inputZeroPoint, float factor,
                       int32_t outputZeroPoint, int64_t qmin, int64_t qmax) {
  float v = static_cast<float>(x - inputZeroPoint) * factor;
  // nearbyint under the default rounding mode: halves to even. ONNX
  // Runtime clamps to [qmin - zp, qmax - zp] before rounding; with integer
  // bounds that is the same as saturating after it, which this does in
  // 64 bits (exact also for i32 results). +-2^62 keeps the conversion
  // defined; NaN cannot occur for finite factors.
  const float limit = 4611686018427387904.0f; // 2^62
  float r = std::clamp(std::nearbyint(v), -limit, limit);
  int64_t y = static_cast<int64_t>(r) + outputZeroPoint;
  return std::clamp(y, qmin, qmax);
}

int64_t addQuantizedONNX(int64_t lhs, int64_t rhs, float lhsScale,
                         int32_t lhsZp, float rhsScale, int32_t rhsZp,
                         float outScale, int32_t outZp, int64_t qmin,
                         int64_t qmax, bool subtract) {
  float a = lhsScale * static_cast<float>(lhs - lhsZp);
  float b = rhsScale * static_cast<float>(rhs - rhsZp);
  float v = (subtract ? a - b : a + b) / outScale;
  const float limit = 4611686018427387904.0f; // 2^62
  float r = std::clamp(std::nearbyint(v), -limit, limit);
  return std::clamp(static_cast<int64_t>(r) + outZp, qmin, qmax);
}

QuantizedMultiplier tvmOperandMultiplier(float scale, float outScale) {
  return quantizeMultiplier(static_cast<double>(scale) /
                            static_cast<double>(outScale));
}

QuantizedMultiplier tvmMulMultiplier(float lhsScale, float rhsScale,
                                     float outScale) {
  float product = lhsScale * rhsScale; // TVM multiplies the scales in float32
  return quantizeMultiplier(static_cast<double>(product) /
                            static_cast<double>(outScale));
}

int64_t addQuantizedTVM(int64_t lhs, int64_t rhs, float lhsScale,
                        int32_t lhsZp, float rhsScale, int32_t rhsZp,
                        float outScale, int32_t outZp, int64_t qmin,
                        int64_t qmax, RoundingRule rule, bool subtract) {
  auto operand = [&](int64_t x, float scale, int32_t zp) -> int64_t {
    if (scale == outScale && zp == outZp)
      return x;
    return static_cast<int64_t>(
               rescale(x - zp, tvmOperandMultiplier(scale, outScale), rule)) +
           outZp;
  };
  int64_t a = operand(lhs, lhsScale, lhsZp), b = operand(rhs, rhsScale, rhsZp);
  int64_t c = subtract ? a - b + outZp : a + b - outZp;
  return std::clamp(c, qmin, qmax);
}

int64_t mulQuantizedTVM(int64_t lhs, int64_t rhs, float lhsScale,
                        int32_t lhsZp, float rhsScale, int32_t rhsZp,
                        float outScale, int32_t outZp, int64_t qmin,
                        int64_t qmax, RoundingRule rule) {
  int64_t product = (lhs - lhsZp) * (rhs - rhsZp);
  int64_t y = static_cast<int64_t>(rescale(
                  product, tvmMulMultiplier(lhsScale, rhsScale, outScale),
                  rule)) +
              outZp;
  return std::clamp(y, qmin, qmax);
}

int64_t mulQuantizedONNX(int64_t lhs, int64_t rhs, float lhsScale,
                         int32_t lhsZp, float rhsScale, int32_t rhsZp,
                         float outScale, int32_t outZp, int64_t qmin,
                         int64_t qmax) {
  float a = lhsScale * static_cast<float>(lhs - lhsZp);
  float b = rhsScale * static_cast<float>(rhs - rhsZp);
  float v = (a * b) / outScale;
  v = std::min(std::max(v, static_cast<float>(qmin - outZp)),
               static_cast<float>(qmax - outZp));
  return static_cast<int64_t>(std::nearbyint(v + static_cast<float>(outZp)));
}

QuantizedMultiplier tfliteMeanMultiplier(float inputScale, float outputScale,
                                         int64_t count) {
  QuantizedMultiplier q = quantizeMultiplier(
      static_cast<double>(inputScale) / static_cast<double>(outputScale));
  int shift = 63 - llvm::countl_zero(static_cast<uint64_t>(count));
  shift = std::min(shift, 32);
  shift = std::min(shift, 31 + q.shift);
  q.multiplier = static_cast<int32_t>(
      (static_cast<int64_t>(q.multiplier) << shift) / count);
  q.shift -= shift;
  return q;
}

QuantizedMultiplier tfliteSumMultiplier(float inputScale, float outputScale,
                                        int64_t count, bool average) {
  if (average)
    return tfliteMeanMultiplier(inputScale, outputScale, count);
  return quantizeMultiplier(static_cast<double>(inputScale) /
                            static_cast<double>(outputScale));
}

/// gemmlowp's `SaturatingRoundingMultiplyByPOT<exponent>` for exponent > 0:
/// x * 2^exponent saturated to i32.
static int32_t saturatingShiftLeft(int32_t x, int exponent) {
  int64_t r = static_cast<int64_t>(x) * (int64_t(1) << exponent);
  return static_cast<int32_t>(
      std::clamp<int64_t>(r, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

QuantizedMultiplier tfliteInvSqrtMultiplier(int32_t input) {
  if (input <= 1)
    return {std::numeric_limits<int32_t>::max(), 0};
  int shift = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++shift;
  }
  // Normalise to [2^27, 2^29) by whole pairs of bits (the square root of
  // 4^k is 2^k).
  unsigned maxLeftShiftBits =
      llvm::countl_zero(static_cast<uint32_t>(input)) - 1;
  unsigned leftShiftBitPairs = maxLeftShiftBits / 2 - 1;
  shift -= static_cast<int>(leftShiftBitPairs);
  input <<= 2 * leftShiftBitPairs;
  // Q3.28 (gemmlowp's FixedPoint<int32, 3>): a product of two Q3 values is
  // Q6, of three Q9; Rescale<3> shifts back left with saturation.
  const int32_t halfInput = roundingDivideByPOT(input >> 1, 1);
  const int32_t halfThree = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28; // 1.0
  for (int i = 0; i < 5; ++i) {
    int32_t x3 = saturatingShiftLeft(
        saturatingRoundingDoublingHighMul(
            saturatingRoundingDoublingHighMul(x, x), x),
        6);
    x = saturatingShiftLeft(saturatingRoundingDoublingHighMul(halfThree, x) -
                                saturatingRoundingDoublingHighMul(halfInput,
                                                                  x3),
                            3);
  }
  // Times sqrt(2) / 2 in Q0.31.
  x = saturatingRoundingDoublingHighMul(x, 1518500250);
  if (shift < 0) {
    x = static_cast<int32_t>(static_cast<uint32_t>(x) << -shift);
    shift = 0;
  }
  return {x, -shift};
}

QuantizedMultiplier tfliteRsqrtMultiplier(float inputScale, float outputScale) {
  float denominator = std::sqrt(inputScale) * outputScale;
  return quantizeMultiplier(1.0 / static_cast<double>(denominator));
}

int64_t rsqrtQuantized(int64_t q, int32_t inputZp, QuantizedMultiplier m,
                       int32_t outputZp, int64_t qmin, int64_t qmax,
                       RoundingRule rule) {
  int32_t value = static_cast<int32_t>(q - inputZp);
  if (value <= 0)
    return qmax;
  constexpr int kShift = 20; // keeps the intermediate an integer
  QuantizedMultiplier inv = tfliteInvSqrtMultiplier(value);
  int32_t data = multiplyByQuantizedMultiplier(
      1, {inv.multiplier, inv.shift + kShift}, rule);
  int64_t y = static_cast<int64_t>(multiplyByQuantizedMultiplier(
                  data, {m.multiplier, m.shift - kShift}, rule)) +
              outputZp;
  return std::clamp(y, qmin, qmax);
}

int64_t l2NormalizeQuantized(int32_t diff, QuantizedMultiplier inv,
                             bool isUnsigned, RoundingRule rule) {
  constexpr int kOutputScale = 7; // the result's scale is 2^-7
  // TFLite's uint8 kernel (optimized_ops) rounds twice, gemmlowp's
  // SaturatingRoundingDoublingHighMul then RoundingDivideByPOT, in every
  // build (LiteRT 2.5.3 does; test/Target/TFLite/l2-norm.test).
  if (isUnsigned)
    return std::clamp<int64_t>(
        static_cast<int64_t>(
            multiplyByQuantizedMultiplier(diff * (1 << kOutputScale), inv)) +
            128,
        0, 255);
  return std::clamp<int64_t>(
      multiplyByQuantizedMultiplier(
          diff, {inv.multiplier, inv.shift + kOutputScale}, rule),
      -128, 127);
}

QuantizedMultiplier tfliteDivMultiplier(float lhsScale, float rhsScale,
                                        float outputScale) {
  float real = lhsScale / (rhsScale * outputScale);
  return quantizeMultiplier(static_cast<double>(real));
}

/// gemmlowp's one_over_one_plus_x_for_x_in_0_1 on a Q0.31 raw value: three
/// Newton-Raphson steps in Q2.29 from 48/17 - 32/17 * (1 + x) / 2.
static int32_t oneOverOnePlusX(int32_t a) {
  // RoundingHalfSum(a, One): (a + 2^31 - 1) / 2, halves away from zero.
  int64_t sum = static_cast<int64_t>(a) + std::numeric_limits<int32_t>::max();
  int32_t halfDenominator =
      static_cast<int32_t>((sum + (sum >= 0 ? 1 : -1)) / 2);
  const int32_t c48Over17 = 1515870810, cNeg32Over17 = -1010580540;
  const int32_t one = 1 << 29; // 1.0 in Q2.29
  int32_t x = static_cast<int32_t>(
      static_cast<uint32_t>(c48Over17) +
      static_cast<uint32_t>(
          saturatingRoundingDoublingHighMul(halfDenominator, cNeg32Over17)));
  for (int i = 0; i < 3; ++i) {
    int32_t halfDenominatorTimesX =
        saturatingRoundingDoublingHighMul(halfDenominator, x);
    int32_t oneMinus = static_cast<int32_t>(static_cast<uint32_t>(one) -
                                            static_cast<uint32_t>(
                                                halfDenominatorTimesX));
    x = static_cast<int32_t>(
        static_cast<uint32_t>(x) +
        static_cast<uint32_t>(saturatingShiftLeft(
            saturatingRoundingDoublingHighMul(x, oneMinus), 2)));
  }
  // ExactMulByPot<-1> keeps the raw value (Q2.29 -> Q1.30); Rescale<0>
  // shifts it left by one with saturation.
  return saturatingShiftLeft(x, 1);
}

/// TFLite's GetReciprocal(x, 31): 1 / x as a Q0.31 value and the number of
/// bits x exceeds 1.0 by.
static int32_t tfliteReciprocal(int32_t x, int &bitsOverUnit) {
  int headroomPlusOne = llvm::countl_zero(static_cast<uint32_t>(x));
  bitsOverUnit = 31 - headroomPlusOne;
  int32_t shiftedMinusOne = static_cast<int32_t>(
      (static_cast<uint32_t>(x) << headroomPlusOne) - (uint32_t(1) << 31));
  return oneOverOnePlusX(shiftedMinusOne);
}

/// TFLite's CountLeadingSignBits (its portable form, as clang builds it).
static int countLeadingSignBits(int32_t x) {
  if (x >= 0)
    return llvm::countl_zero(static_cast<uint32_t>(x)) - 1;
  if (x == std::numeric_limits<int32_t>::min())
    return 0;
  return llvm::countl_zero(2 * static_cast<uint32_t>(-x) - 1);
}

int64_t divQuantized(int64_t lhs, int64_t rhs, int32_t lhsZp, int32_t rhsZp,
                     QuantizedMultiplier m, int32_t outputZp, int64_t qmin,
                     int64_t qmax) {
  int32_t a = static_cast<int32_t>(lhs - lhsZp);
  int32_t b = static_cast<int32_t>(rhs - rhsZp);
  if (b == 0)
    return a > 0 ? qmax : a < 0 ? qmin : std::clamp<int64_t>(outputZp, qmin, qmax);
  if (b < 0) {
    a = -a;
    b = -b;
  }
  int recipShift = 0;
  int32_t inverse = tfliteReciprocal(b, recipShift);
  int headroom = countLeadingSignBits(a);
  int32_t unscaled = multiplyByQuantizedMultiplier(a, {inverse, headroom});
  int totalShift = m.shift - recipShift - headroom;
  int32_t scaled =
      totalShift < -31
          ? 0
          : multiplyByQuantizedMultiplier(unscaled, {m.multiplier, totalShift});
  return std::clamp<int64_t>(static_cast<int64_t>(scaled) + outputZp, qmin,
                             qmax);
}

float onnxGlobalAvgPoolFactor(float inputScale, float outputScale,
                              int64_t count) {
  float denominator = outputScale * static_cast<float>(count);
  return inputScale / denominator;
}

int64_t quantizeFloat(float x, float scale, int32_t zeroPoint, int64_t qmin,
                      int64_t qmax, bool halfToEven) {
  if (std::isnan(x))
    return std::clamp<int64_t>(zeroPoint, qmin, qmax);
  float scaled =
      halfToEven ? std::nearbyint(x / scale) : std::round(x / scale);
  // Clamp in float before converting: the conversion is undefined out of
  // range. 2^40 is far outside every storage range and exact in float.
  scaled = std::clamp(scaled, -1099511627776.0f, 1099511627776.0f);
  int64_t q = static_cast<int64_t>(scaled) + zeroPoint;
  return std::clamp(q, qmin, qmax);
}

float dequantizeValue(int64_t q, float scale, int32_t zeroPoint) {
  return static_cast<float>(static_cast<double>(scale) *
                            static_cast<double>(q - zeroPoint));
}

std::array<int32_t, 256>
buildLookupTable(bool isSigned, float inputScale, int32_t inputZeroPoint,
                 float outputScale, int32_t outputZeroPoint,
                 const std::function<float(float)> &function, bool onnx) {
  std::array<int32_t, 256> table{};
  const int32_t minval = isSigned ? -128 : 0;
  const int32_t maxval = isSigned ? 127 : 255;
  if (onnx) {
    // ONNX Runtime's table (QlinearBuildLookupTable): dequantize in float32,
    // apply, quantize with MlasQuantizeLinear (divide, halves to even).
    for (int32_t val = minval; val <= maxval; ++val) {
      const float dequantized =
          inputScale * static_cast<float>(val - inputZeroPoint);
      table[static_cast<uint8_t>(val)] = static_cast<int32_t>(
          quantizeFloat(function(dequantized), outputScale, outputZeroPoint,
                        minval, maxval, /*halfToEven=*/true));
    }
    return table;
  }
  const float inverseScale = 1.0f / outputScale;
  for (int32_t val = minval; val <= maxval; ++val) {
    const float dequantized =
        inputScale * static_cast<float>(val - inputZeroPoint);
    const float transformed = function(dequantized);
    const float rescaled = std::round(transformed * inverseScale);
    int32_t quantized;
    float shifted = rescaled + static_cast<float>(outputZeroPoint);
    if (std::isnan(shifted))
      quantized = outputZeroPoint;
    else
      quantized = static_cast<int32_t>(
          std::clamp(shifted, -2147483648.0f, 2147483520.0f));
    table[static_cast<uint8_t>(val)] = std::clamp(quantized, minval, maxval);
  }
  return table;
}

float hardSwish(float x) {
  return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f;
}

std::array<int32_t, 256> buildRescaleTableONNX(bool isSigned, float inputScale,
                                               int32_t inputZeroPoint,
                                               float outputScale,
                                               int32_t outputZeroPoint) {
  return buildLookupTable(
      isSigned, inputScale, inputZeroPoint, outputScale, outputZeroPoint,
      [](float x) { return x; }, /*onnx=*/true);
}

int64_t onnxAvgPoolOutput(float sum, int64_t count, float outScale,
                          int32_t outZp, int64_t qmin, int64_t qmax) {
  float avg = sum / static_cast<float>(count);
  float v = std::nearbyint(avg / outScale + static_cast<float>(outZp));
  // Clamp in float before converting (an infinite quotient is possible with
  // a denormal output scale).
  v = std::clamp(v, -1099511627776.0f, 1099511627776.0f); // 2^40
  return std::clamp(static_cast<int64_t>(v), qmin, qmax);
}

AddParams computeSquaredDifferenceParams(float lhsScale, int32_t lhsZp,
                                         float rhsScale, int32_t rhsZp,
                                         float outputScale, int32_t outputZp) {
  AddParams p;
  p.lhsOffset = -lhsZp;
  p.rhsOffset = -rhsZp;
  p.outputOffset = outputZp;
  p.leftShift = 7;
  // As TFLite's Prepare: 2 * max in float32 (exact), the rest in double;
  // (1 << 14) * output_scale is a float32 product (exact).
  const double twiceMax = static_cast<double>(2.0f * std::max(lhsScale, rhsScale));
  p.lhs = quantizeMultiplier(static_cast<double>(lhsScale) / twiceMax);
  p.rhs = quantizeMultiplier(static_cast<double>(rhsScale) / twiceMax);
  const float denominator = static_cast<float>(1 << 14) * outputScale;
  p.output =
      quantizeMultiplier(twiceMax * twiceMax / static_cast<double>(denominator));
  return p;
}

int64_t squaredDifferenceQuantized(int64_t lhs, int64_t rhs,
                                   const AddParams &p, int64_t qmin,
                                   int64_t qmax, RoundingRule rule) {
  int32_t a = static_cast<int32_t>(lhs + p.lhsOffset) * (1 << p.leftShift);
  int32_t b = static_cast<int32_t>(rhs + p.rhsOffset) * (1 << p.leftShift);
  int32_t diff = multiplyByQuantizedMultiplier(a, p.lhs, rule) -
                 multiplyByQuantizedMultiplier(b, p.rhs, rule);
  int32_t squared = diff * diff; // |diff| <= 255 * 2^7: fits
  int64_t out =
      static_cast<int64_t>(multiplyByQuantizedMultiplier(squared, p.output,
                                                         rule)) +
      p.outputOffset;
  return std::clamp(out, qmin, qmax);
}

PReluParams computePReluParams(float inputScale, float alphaScale,
                               float outputScale) {
  // Float32 on purpose, as TFLite's PreluPrepare.
  const float positive = inputScale / outputScale;
  const float negative = inputScale * alphaScale / outputScale;
  PReluParams p;
  p.positive = quantizeMultiplier(static_cast<double>(positive));
  p.negative = quantizeMultiplier(static_cast<double>(negative));
  return p;
}

int64_t preluQuantized(int64_t x, int64_t alpha, int32_t inputZeroPoint,
                       int32_t alphaZeroPoint, const PReluParams &p,
                       int32_t outputZeroPoint, int64_t qmin, int64_t qmax,
                       RoundingRule rule) {
  int32_t centered = static_cast<int32_t>(x - inputZeroPoint);
  int32_t scaled =
      centered >= 0
          ? multiplyByQuantizedMultiplier(centered, p.positive, rule)
          : multiplyByQuantizedMultiplier(
                centered * static_cast<int32_t>(alpha - alphaZeroPoint),
                p.negative, rule);
  return std::clamp(static_cast<int64_t>(scaled) + outputZeroPoint, qmin,
                    qmax);
}

float elu(float x) { return x < 0.0f ? std::exp(x) - 1.0f : x; }

float hardSwishONNX(float x) {
  const float alpha = 1.0f / 6.0f;
  return x * std::max(0.0f, std::min(1.0f, x * alpha + 0.5f));
}

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

int64_t roundedAverage(int64_t sum, int64_t count) {
  assert(count > 0);
  return sum >= 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

AddParams computeAddParams(float lhsScale, int32_t lhsZp, float rhsScale,
                           int32_t rhsZp, float outputScale, int32_t outputZp) {
  AddParams p;
  p.lhsOffset = -lhsZp;
  p.rhsOffset = -rhsZp;
  p.outputOffset = outputZp;
  p.leftShift = 20;
  const double twiceMax =
      2.0 * static_cast<double>(std::max(lhsScale, rhsScale));
  p.lhs = quantizeMultiplier(static_cast<double>(lhsScale) / twiceMax);
  p.rhs = quantizeMultiplier(static_cast<double>(rhsScale) / twiceMax);
  p.output = quantizeMultiplier(
      twiceMax / ((1 << p.leftShift) * static_cast<double>(outputScale)));
  return p;
}

AddParams computeSubParams(float lhsScale, int32_t lhsZp, float rhsScale,
                           int32_t rhsZp, float outputScale, int32_t outputZp) {
  AddParams p = computeAddParams(lhsScale, lhsZp, rhsScale, rhsZp,
                                 outputScale, outputZp);
  p.rhs.multiplier = -p.rhs.multiplier;
  return p;
}

int64_t addQuantized(int64_t lhs, int64_t rhs, const AddParams &p, int64_t qmin,
                     int64_t qmax, RoundingRule rule) {
  int32_t a = static_cast<int32_t>(lhs + p.lhsOffset) * (1 << p.leftShift);
  int32_t b = static_cast<int32_t>(rhs + p.rhsOffset) * (1 << p.leftShift);
  int32_t sum = multiplyByQuantizedMultiplier(a, p.lhs, rule) +
                multiplyByQuantizedMultiplier(b, p.rhs, rule);
  int64_t out =
      static_cast<int64_t>(multiplyByQuantizedMultiplier(sum, p.output, rule)) +
      p.outputOffset;
  return std::clamp(out, qmin, qmax);
}

std::optional<AddAffine> fitAddAffine(const AddParams &p, RoundingRule rule,
                                      bool isUnsigned, int64_t qmin,
                                      int64_t qmax) {
  if (rule != RoundingRule::TFLite && rule != RoundingRule::TFLiteSingle)
    return std::nullopt;
  const int64_t base = isUnsigned ? 0 : -128;
  // The outputs less the output zero point for every pair of stored
  // values, indexed by (x - base) * 256 + (y - base), and their bounds.
  const int64_t zp = p.outputOffset, lo = qmin - zp, hi = qmax - zp;
  std::vector<int16_t> outputs(65536);
  for (int64_t x = 0; x < 256; ++x)
    for (int64_t y = 0; y < 256; ++y)
      outputs[x * 256 + y] = static_cast<int16_t>(
          addQuantized(base + x, base + y, p, qmin, qmax, rule) - zp);
  double output = std::ldexp(realMultiplier(p.output), p.leftShift);
  double lhsSlope = realMultiplier(p.lhs) * output;
  double rhsSlope = realMultiplier(p.rhs) * output;
  double largest = std::max(std::fabs(lhsSlope), std::fabs(rhsSlope));
  if (!(largest > 0.0) || !std::isfinite(largest))
    return std::nullopt;
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max() / 4;
  // d for slopes a and c: the interval every pair allows (floor((a * x + c
  // * y + d) / 2^q) is the output, or beyond it on a clamped side), and
  // every a * x + c * y + d within int32 (at the corners: it is affine).
  auto constant = [&](int64_t a, int64_t c, int q) -> std::optional<int64_t> {
    const int64_t unit = int64_t(1) << q;
    int64_t lower = -kNone, upper = kNone;
    for (int64_t x = 0; x < 256; ++x)
      for (int64_t y = 0; y < 256; ++y) {
        int64_t out = outputs[x * 256 + y];
        int64_t sum = a * (base + x) + c * (base + y);
        if (out > lo)
          lower = std::max(lower, out * unit - sum);
        if (out < hi)
          upper = std::min(upper, (out + 1) * unit - sum - 1);
        if (lower > upper)
          return std::nullopt;
      }
    int64_t d = lower != -kNone ? lower : upper != kNone ? upper : 0;
    for (int64_t x : {base, base + 255})
      for (int64_t y : {base, base + 255}) {
        int64_t v = a * x + c * y + d;
        if (v < std::numeric_limits<int32_t>::min() ||
            v > std::numeric_limits<int32_t>::max())
          return std::nullopt;
      }
    return d;
  };
  // The scale 2^q that puts the larger slope in [2^21, 2^22) (each product
  // of a stored byte below 2^30), or one or two below it where int32 would
  // not hold the sums; the slopes within 2 of the nearest, nearest first.
  int q0 = std::min(21 - static_cast<int>(std::floor(std::log2(largest))), 30);
  for (int q = q0; q >= std::max(q0 - 2, 0); --q) {
    int64_t a0 = std::llround(std::ldexp(lhsSlope, q));
    int64_t c0 = std::llround(std::ldexp(rhsSlope, q));
    for (int radius = 0; radius <= 2; ++radius)
      for (int64_t da = -radius; da <= radius; ++da)
        for (int64_t dc = -radius; dc <= radius; ++dc) {
          int64_t a = a0 + da, c = c0 + dc;
          if (std::max(std::abs(da), std::abs(dc)) != radius ||
              std::abs(a) >= (int64_t(1) << 22) ||
              std::abs(c) >= (int64_t(1) << 22))
            continue;
          if (std::optional<int64_t> d = constant(a, c, q))
            return AddAffine{static_cast<int32_t>(a), static_cast<int32_t>(c),
                             static_cast<int32_t>(*d), q,
                             static_cast<int32_t>(zp)};
        }
  }
  return std::nullopt;
}

QuantizedMultiplier computeMulMultiplier(float lhsScale, float rhsScale,
                                         float outputScale) {
  return quantizeMultiplier(static_cast<double>(lhsScale) *
                            static_cast<double>(rhsScale) /
                            static_cast<double>(outputScale));
}

int64_t mulQuantized(int64_t lhs, int64_t rhs, int32_t lhsZp, int32_t rhsZp,
                     QuantizedMultiplier m, int32_t outputZp, int64_t qmin,
                     int64_t qmax, RoundingRule rule) {
  int32_t product = static_cast<int32_t>((lhs - lhsZp) * (rhs - rhsZp));
  int64_t out =
      static_cast<int64_t>(multiplyByQuantizedMultiplier(product, m, rule)) +
      outputZp;
  return std::clamp(out, qmin, qmax);
}

LeakyReluParams computeLeakyReluParams(float inputScale, float alpha,
                                       float outputScale) {
  // Float32 on purpose: TFLite's LeakyReluPrepare multiplies and divides the
  // float scales before widening, and the multiplier bits depend on it.
  const float alphaReal = inputScale * alpha / outputScale;
  const float identityReal = inputScale / outputScale;
  LeakyReluParams p;
  p.alpha = quantizeMultiplier(static_cast<double>(alphaReal));
  p.identity = quantizeMultiplier(static_cast<double>(identityReal));
  return p;
}

int64_t leakyReluQuantized(int64_t x, int32_t inputZeroPoint,
                           const LeakyReluParams &p, int32_t outputZeroPoint,
                           int64_t qmin, int64_t qmax, RoundingRule rule) {
  int32_t centered = static_cast<int32_t>(x - inputZeroPoint);
  int32_t scaled = multiplyByQuantizedMultiplier(
      centered, centered >= 0 ? p.identity : p.alpha, rule);
  return std::clamp(static_cast<int64_t>(scaled) + outputZeroPoint, qmin, qmax);
}

ConcatRescaleParams computeConcatRescaleParams(float inputScale,
                                               int32_t inputZeroPoint,
                                               float outputScale) {
  // Separate statements keep the compiler from fusing into an FMA, which
  // TFLite's x86 build does not do either.
  ConcatRescaleParams p;
  const float inverseOutputScale = 1.0f / outputScale;
  p.scale = inputScale * inverseOutputScale;
  p.bias = static_cast<float>(-static_cast<int64_t>(inputZeroPoint)) * p.scale;
  return p;
}

bool isRepresentableConcatRescale(float inputScale, int32_t inputZeroPoint,
                                  float outputScale) {
  ConcatRescaleParams p =
      computeConcatRescaleParams(inputScale, inputZeroPoint, outputScale);
  return std::isfinite(p.scale) && std::isfinite(p.bias) &&
         std::fabs(p.scale) <= 0x1p64f;
}

int64_t concatRescale(int64_t x, const ConcatRescaleParams &p,
                      int32_t outputZeroPoint, int64_t qmin, int64_t qmax) {
  volatile float product = static_cast<float>(x) * p.scale;
  const float value = std::round(product + p.bias);
  const float limited = std::clamp(value, -1099511627776.0f, 1099511627776.0f);
  int64_t q = static_cast<int64_t>(limited) + outputZeroPoint;
  return std::clamp(q, qmin, qmax);
}

int64_t concatRescale(int64_t x, float inputScale, int32_t inputZeroPoint,
                      float outputScale, int32_t outputZeroPoint, int64_t qmin,
                      int64_t qmax) {
  return concatRescale(
      x, computeConcatRescaleParams(inputScale, inputZeroPoint, outputScale),
      outputZeroPoint, qmin, qmax);
}

int64_t castFloatToInt(float x, int64_t qmin, int64_t qmax) {
  if (std::isnan(x))
    return 0;
  float rounded = std::nearbyint(x); // default mode: round half to even
  if (rounded <= static_cast<float>(qmin))
    return qmin;
  if (rounded >= static_cast<float>(qmax))
    return qmax;
  return static_cast<int64_t>(rounded);
}

std::array<float, 256> tfliteLogSoftmaxTable(float inputScale) {
  std::array<float, 256> table;
  const float scale = -inputScale; // -input_scale * beta, beta = 1
  for (int d = 0; d <= 255; ++d)
    table[255 - d] = std::exp(scale * static_cast<float>(d));
  return table;
}

void logSoftmaxRow(const int64_t *row, int64_t depth,
                   const std::array<float, 256> &table, float inputScale,
                   float outputScale, int32_t outputZp, int64_t qmin,
                   int64_t qmax, int64_t *out) {
  int64_t m = qmin;
  for (int64_t i = 0; i < depth; ++i)
    m = std::max(m, row[i]);
  float sum = 0.0f;
  for (int64_t i = 0; i < depth; ++i)
    sum = sum + table[255 - (m - row[i])];
  const float logSum = std::log(sum);
  const float scale = inputScale / outputScale;
  float precomputed = inputScale * static_cast<float>(m);
  precomputed = precomputed + logSum;
  precomputed = precomputed / outputScale;
  for (int64_t i = 0; i < depth; ++i) {
    float v = scale * static_cast<float>(row[i]);
    v = v - precomputed;
    float y = std::nearbyint(v) + static_cast<float>(outputZp);
    // NaN (inf - inf, with scales whose ratio overflows float32): TFLite's
    // conversion on x86 gives INT32_MIN, which its clamp makes qmin.
    if (std::isnan(y)) {
      out[i] = qmin;
      continue;
    }
    // Saturated in float32 before the conversion (TFLite converts first;
    // the same result wherever its conversion is defined).
    y = std::min(std::max(y, static_cast<float>(qmin)),
                 static_cast<float>(qmax));
    out[i] = static_cast<int64_t>(y);
  }
}

float roundToHalf(double v) {
  llvm::APFloat f(v);
  bool losesInfo = false;
  f.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo);
  f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
            &losesInfo); // exact: every half is a float
  return f.convertToFloat();
}

float dequantizeValueF16(int64_t q, float scale, int32_t zeroPoint) {
  // Both factors have 11-bit significands: their product is exact in double
  // and rounds once, as an f16 multiply does.
  double s = roundToHalf(scale);
  double d = roundToHalf(static_cast<double>(q - zeroPoint));
  return roundToHalf(s * d);
}

} // namespace mlir::qnn::math
