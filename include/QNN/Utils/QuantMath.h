//===- QuantMath.h - the one definition of quantized arithmetic -*- C++ -*-===//
//
// Every integer rule of qnn-mlir lives here: the TFLite fixed-point multiplier
// and rescale, TVM's single-rounding rescales, float quantize/dequantize, the
// lookup tables of 8-bit activations and TFLite's elementwise kernels. The
// folders, the reference evaluator and the lowerings all call these functions
// (or generate code that is tested against them), so there is exactly one
// place to read and fix the arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_UTILS_QUANTMATH_H
#define QNN_UTILS_QUANTMATH_H

#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>

namespace mlir::qnn::math {

/// How a fixed-point rescale rounds (mirrors the `#qnn.rounding` attribute).
/// `TFLite` is gemmlowp's double rounding (TFLITE_SINGLE_ROUNDING=0),
/// `TFLiteSingle` TFLite's single rounding (TFLITE_SINGLE_ROUNDING=1, the
/// TFLite 2.x runtimes), `Upward`/`ToNearest` TVM's rules, `ONNX` ONNX
/// Runtime's float32 requantize (requantizeONNX; not a fixed-point rule,
/// `rescale` does not take it).
enum class RoundingRule { TFLite, Upward, ToNearest, TFLiteSingle, ONNX };

/// A real multiplier as a Q31 significand and a power-of-two exponent:
/// real ~= multiplier * 2^(shift - 31). `shift > 0` is a left shift.
struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int32_t shift = 0;
};

/// TFLite's `QuantizeMultiplier`: frexp, significand rounded half away from
/// zero to Q31, 2^31 renormalised, exponents below -31 flushed to zero.
/// `real` must be finite. A negative `real` (only leaky ReLU with a negative
/// alpha produces one) follows the same code path as TFLite's function does
/// without its sign check: a negative Q31 significand, -2^31 not renormalised.
QuantizedMultiplier quantizeMultiplier(double real);

/// Whether a rescale by `real` has a fixed-point form: finite, with
/// |real| < 2^29, so that the Q31 significand's exponent (TFLite's left
/// shift) stays below 31 even after rounding. Verifiers refuse the others,
/// which TFLite cannot compute either (its left shift would overflow).
bool isRepresentableMultiplier(double real);

/// gemmlowp's `SaturatingRoundingDoublingHighMul`: (a * b * 2 + 2^31 nudge)
/// / 2^32 with halves toward +infinity; INT32_MIN * INT32_MIN saturates.
int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b);

/// gemmlowp's `RoundingDivideByPOT`: x / 2^exponent, halves away from zero.
/// `exponent` in [0, 31].
int32_t roundingDivideByPOT(int32_t x, int exponent);

/// TFLite's `MultiplyByQuantizedMultiplier` (double rounding). The left shift
/// wraps in 32 bits, as the compiled TFLite kernel does.
int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m);

/// TFLite's `MultiplyByQuantizedMultiplier` built with TFLITE_SINGLE_ROUNDING:
/// `(x * m + 2^(30 - shift)) >> (31 - shift)` on the 64-bit product, i.e.
/// x times the real multiplier rounded once, halves toward +infinity;
/// saturated to i32 (TFLite only asserts that it fits).
int32_t multiplyByQuantizedMultiplierSingleRounding(int32_t x,
                                                    QuantizedMultiplier m);

/// The rescale of TFLite's kernels under `rule` (`TFLite` or
/// `TFLiteSingle`): double or single rounding of the 32-bit `x`.
int32_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier m,
                                      RoundingRule rule);

/// A rescale written as one floor of an affine function of the input, in
/// float32 parameters: floor(x * slope + offset), with `negativeOffset` in
/// place of `offset` for x < 0, of the input clamped to
/// [-kFloorAffineBound, kFloorAffineBound] (where float32 holds every
/// integer). On CPUs with AVX-512 this is one fused multiply-add rounded
/// down (vfmadd {rd-sae}) between two free conversions: half the
/// multiplier-pipe work of the fixed-point forms (two vpmuldq per 16
/// lanes), which competes with vpdpbusd for the same pipes.
struct FloorAffine {
  float slope = 0.0f;
  float offset = 0.0f;
  float negativeOffset = 0.0f;

  bool splitsOnSign() const { return offset != negativeOffset; }
};

constexpr int64_t kFloorAffineBound = int64_t(1) << 24;

/// floor(x' * f.slope + offset(x')) for x' = clamp(x, -B, B), in exact
/// arithmetic.
int64_t evaluateFloorAffine(int64_t x, const FloorAffine &f);

/// A FloorAffine equal to TFLite's rescale by `m` under `rule` (`TFLite` or
/// `TFLiteSingle`) once both are clamped to [lo, hi]: for every int32 x,
/// clamp(evaluateFloorAffine(x), lo, hi) ==
/// clamp(multiplyByQuantizedMultiplier(x, m, rule), lo, hi). The values
/// x * slope + offset it produces for |x| <= B are below 2^24 in magnitude
/// (float32 rounds them down exactly to their floor) and their distance to
/// the next integer, when not zero, exceeds their double rounding error
/// (a float64 fma and floor computes the same integers). Found by
/// checking, for a few float32 slopes next to the real multiplier, the
/// first input of every output level in [lo, hi]; none (std::nullopt) for
/// left shifts (not monotone in 32 bits), negative multipliers, levels
/// reached beyond B, or when no slope nearby fits. With a `reach` of B or
/// less (no input exceeds it in magnitude: a layer's accumulators, bounded
/// by its weights), only the inputs within it count: fewer levels, and a
/// narrower range for the slope to resolve.
std::optional<FloorAffine>
fitRescaleFloorAffine(QuantizedMultiplier m, RoundingRule rule, int64_t lo,
                      int64_t hi,
                      int64_t reach = std::numeric_limits<int64_t>::max());

/// Rescale `x` by `m` under `rule`; `Upward`/`ToNearest` are TVM's
/// single-rounding rules on the exact 64-bit product, saturated to i32.
int32_t rescale(int64_t x, QuantizedMultiplier m, RoundingRule rule);

/// The multiplier of `qnn.requantize` for one channel: the real multiplier
/// `inputScale / double(outputScale)` computed in double, as TFLite's
/// `PopulateConvolutionQuantizationParams` and `Requantize` do.
QuantizedMultiplier requantizeMultiplier(double inputScale, float outputScale);

/// Complete requantize of one value: rescale(x - inZp) + outZp, clamped.
int64_t requantize(int64_t x, int32_t inputZeroPoint, QuantizedMultiplier m,
                   int32_t outputZeroPoint, int64_t qmin, int64_t qmax,
                   RoundingRule rule);

/// The float32 factor of ONNX's requantize for one channel, as ONNX Runtime
/// computes it for QLinearConv: `x_scale * w_scale / y_scale` in float32.
/// `inputScale` is qnn's exact double product `double(x_scale) *
/// double(w_scale)`, so float(inputScale) is the float32 product, and the
/// division of two floats done in double then rounded to float is the
/// float32 quotient.
float onnxRequantizeFactor(double inputScale, float outputScale);

/// ONNX's requantize of one value (ONNX Runtime's MlasRequantizeOutput):
/// v = float(x - inZp) * factor in float32, rounded half to even, + outZp,
/// saturated to [qmin, qmax] (ONNX Runtime clamps v to [qmin - outZp,
/// qmax - outZp] first: the same integers).
int64_t requantizeONNX(int64_t x, int32_t inputZeroPoint, float factor,
                       int32_t outputZeroPoint, int64_t qmin, int64_t qmax);

/// TFLite's reference MEAN (reference_ops::QuantizedMeanOrSum): the
/// multiplier of input_scale / output_scale with the element count folded
/// in, `m' = (m << s) / count` (truncating) and `shift' = shift - s` with
/// `s = min(floor(log2 count), 32, 31 + shift)`.
QuantizedMultiplier tfliteMeanMultiplier(float inputScale, float outputScale,
                                         int64_t count);

/// The multiplier of TFLite's quantized SUM (`average` false: the one of
/// inputScale / outputScale) or MEAN (`average`: tfliteMeanMultiplier).
QuantizedMultiplier tfliteSumMultiplier(float inputScale, float outputScale,
                                        int64_t count, bool average);

/// TFLite's `GetInvSqrtQuantizedMultiplierExp(input, kReverseShift)`:
/// 1 / sqrt(input) as a Q31 multiplier and a (left) shift, from gemmlowp's
/// fixed-point Newton-Raphson iteration (5 steps from 1.0 in Q3.28), so
/// that MultiplyByQuantizedMultiplier by it is input^-1/2; inputs <= 1
/// give INT32_MAX, shift 0.
QuantizedMultiplier tfliteInvSqrtMultiplier(int32_t input);

/// The output multiplier of TFLite's int8 RSQRT: QuantizeMultiplier of
/// `1 / double(sqrtf(inputScale) * outputScale)` (square root and product
/// in float32, as `SetRsqrtOutputMultiplier`).
QuantizedMultiplier tfliteRsqrtMultiplier(float inputScale, float outputScale);

/// TFLite's quantized RSQRT of one stored value `q` (RsqrtEvalQuantized):
/// `v = q - inputZp`; `v == 0` gives qmax; else with `(mi, si) =
/// tfliteInvSqrtMultiplier(v)`, `data = MBQM(1, mi, si + 20)`, `y =
/// MBQM(data, m, shift - 20) + outputZp`, saturated (MBQM with `rule`'s
/// rounding). TFLite refuses to run on `v < 0`; those give qmax too (as the
/// TOSA legalization of RSQRT does).
int64_t rsqrtQuantized(int64_t q, int32_t inputZp, QuantizedMultiplier m,
                       int32_t outputZp, int64_t qmin, int64_t qmax,
                       RoundingRule rule);

/// One element of TFLite's integer L2_NORMALIZATION: `diff = q - input_zp`,
/// `inv` the row's tfliteInvSqrtMultiplier(sum of squares); int8:
/// MBQM(diff, inv.m, inv.shift + 7) with `rule`; uint8: MBQM(128 * diff,
/// inv.m, inv.shift) + 128 with gemmlowp's double rounding whatever `rule`
/// (TFLite's uint8 kernel); saturated to the type's range.
int64_t l2NormalizeQuantized(int32_t diff, QuantizedMultiplier inv,
                             bool isUnsigned, RoundingRule rule);

/// The output multiplier of TFLite's quantized DIV: QuantizeMultiplier of
/// `lhsScale / (rhsScale * outputScale)` evaluated in float32 (as its
/// Prepare does).
QuantizedMultiplier tfliteDivMultiplier(float lhsScale, float rhsScale,
                                        float outputScale);

/// TFLite's quantized DIV of one pair of stored values (reference
/// DivElementwise): `a = lhs - lhsZp`, `b = rhs - rhsZp` (signs flipped when
/// b < 0), gemmlowp's fixed-point reciprocal of b (GetReciprocal), `q =
/// SRDHM(a << headroom(a), 1/b)`, `y = RoundingDivideByPOT(SRDHM(q, m),
/// recip_shift + headroom(a) - m.shift) + outputZp`, saturated: gemmlowp's
/// double rounding in every TFLite build (its MultiplyByQuantizedMultiplier
/// GreaterThanOne / SmallerThanOneExp; LiteRT 2.5.3 computes these). A
/// right shift above 31, undefined in gemmlowp (LiteRT then returns
/// garbage), gives the exact result, 0 (|q * m| < 2^31). `b == 0`, which
/// TFLite refuses at run time, gives qmax for a > 0, qmin for a < 0 and the
/// zero point for 0 / 0.
int64_t divQuantized(int64_t lhs, int64_t rhs, int32_t lhsZp, int32_t rhsZp,
                     QuantizedMultiplier m, int32_t outputZp, int64_t qmin,
                     int64_t qmax);

/// ONNX Runtime's QLinearGlobalAveragePool factor for `count` values:
/// float32(inputScale / float32(outputScale * float32(count))).
float onnxGlobalAvgPoolFactor(float inputScale, float outputScale,
                              int64_t count);

/// TFLite's `AffineQuantize` of one float: round_half_away(x / scale) + zp in
/// float32, clamped to [qmin, qmax]; NaN gives the zero point.
/// `halfToEven`: ONNX's QuantizeLinear instead (ONNX Runtime: the same
/// float32 division, rounded with nearbyint, halves to even).
int64_t quantizeFloat(float x, float scale, int32_t zeroPoint, int64_t qmin,
                      int64_t qmax, bool halfToEven = false);

/// TFLite's `Dequantize` of one value: `float(double(scale) * (q - zp))`, the
/// product in double as TFLite's reference kernel (identical to a float32
/// product for 8-bit inputs, not for large i32 inputs).
float dequantizeValue(int64_t q, float scale, int32_t zeroPoint);

/// TFLite's `LUTPopulate` for 8-bit data: entry `i` is the result for the
/// storage value whose low byte is `i` (so index by `uint8_t(q)`).
std::array<int32_t, 256>
buildLookupTable(bool isSigned, float inputScale, int32_t inputZeroPoint,
                 float outputScale, int32_t outputZeroPoint,
                 const std::function<float(float)> &function,
                 bool onnx = false);
/// ONNX's rescale of one byte (QDQ Concat, QLinearConcat): the table of
/// quantize(dequantize(q)), `nearbyint(float32(inputScale * (q - inZp)) /
/// outputScale) + outZp`, saturated to the input's storage range.
std::array<int32_t, 256> buildRescaleTableONNX(bool isSigned, float inputScale,
                                               int32_t inputZeroPoint,
                                               float outputScale,
                                               int32_t outputZeroPoint);
/// The last step of ONNX Runtime's QLinearAveragePool: the float32 window
/// sum divided by `count`, then nearbyint(avg / outScale + outZp) (halves to
/// even), saturated.
int64_t onnxAvgPoolOutput(float sum, int64_t count, float outScale,
                          int32_t outZp, int64_t qmin, int64_t qmax);
/// TFLite's PRELU multipliers: input_scale / output_scale and input_scale *
/// alpha_scale / output_scale, each computed in float32 and then widened.
struct PReluParams {
  QuantizedMultiplier positive, negative;
};
PReluParams computePReluParams(float inputScale, float alphaScale,
                               float outputScale);
/// TFLite's quantized PRELU of one value (`rule`: one of TFLite's two).
int64_t preluQuantized(int64_t x, int64_t alpha, int32_t inputZeroPoint,
                       int32_t alphaZeroPoint, const PReluParams &p,
                       int32_t outputZeroPoint, int64_t qmin, int64_t qmax,
                       RoundingRule rule);
/// ELU with alpha 1 in float32, as TFLite's int8 table: x < 0 ? exp(x) - 1
/// : x.
float elu(float x);
/// ONNX's HardSwish in float32: x * max(0, min(1, x * (1/6) + 0.5)).
float hardSwishONNX(float x);

/// The float functions behind the table activations.
float hardSwish(float x);
float sigmoid(float x);

/// Rounding average as TFLite's integer average pool: halves away from zero.
int64_t roundedAverage(int64_t sum, int64_t count);

/// Parameters of TFLite's quantized ADD (precomputed once per op).
struct AddParams {
  int32_t lhsOffset, rhsOffset, outputOffset;
  int leftShift;
  QuantizedMultiplier lhs, rhs, output;
};
AddParams computeAddParams(float lhsScale, int32_t lhsZp, float rhsScale,
                           int32_t rhsZp, float outputScale, int32_t outputZp);
/// TFLite's SUB on 8-bit data: ADD's parameters with the rhs multiplier
/// negated (evaluate with `addQuantized`).
AddParams computeSubParams(float lhsScale, int32_t lhsZp, float rhsScale,
                           int32_t rhsZp, float outputScale, int32_t outputZp);
/// TFLite's int8 SQUARED_DIFFERENCE: AddParams with left shift 7 and the
/// output multiplier of twice_max^2 / (2^14 * output_scale).
AddParams computeSquaredDifferenceParams(float lhsScale, int32_t lhsZp,
                                         float rhsScale, int32_t rhsZp,
                                         float outputScale, int32_t outputZp);
int64_t squaredDifferenceQuantized(int64_t lhs, int64_t rhs,
                                   const AddParams &p, int64_t qmin,
                                   int64_t qmax, RoundingRule rule);
/// TFLite's ADD with the rescales of `rule` (`TFLite` or `TFLiteSingle`).
/// ONNX's QLinearAdd (ONNX Runtime's reference kernel, MLAS
/// MlasQLinearAddKernelRawHelper): a = lhsScale * float(lhs - lhsZp) and
/// b = rhsScale * float(rhs - rhsZp) in float32, nearbyint((a +- b) /
/// outScale) + outZp, saturated. (ONNX Runtime's AVX2 kernel rescales in
/// fixed point instead and can differ by one.)
/// ONNX's QLinearMul (com.microsoft; ONNX Runtime's portable MLAS kernel,
/// the operator's definition): a = lhsScale * float(lhs - lhsZp), b =
/// rhsScale * float(rhs - rhsZp), v = (a * b) / outScale in float32,
/// clamped to [qmin - outZp, qmax - outZp], then nearbyint(v + outZp) (halves
/// to even). (ONNX Runtime's SSE2/NEON kernels compute float(product) *
/// (lhsScale * rhsScale / outScale) + outZp instead and can differ by one.)
int64_t mulQuantizedONNX(int64_t lhs, int64_t rhs, float lhsScale,
                         int32_t lhsZp, float rhsScale, int32_t rhsZp,
                         float outScale, int32_t outZp, int64_t qmin,
                         int64_t qmax);
/// TVM's qnn.add / qnn.subtract (`rule` Upward or ToNearest): each operand
/// whose scale or zero point differs from the output's is requantized to
/// them in i32 (multiplier of double(scale) / double(output_scale), TVM's
/// single-rounding fixed point), then `a + b - output_zp` (`a - b +
/// output_zp` for subtract), saturated.
int64_t addQuantizedTVM(int64_t lhs, int64_t rhs, float lhsScale,
                        int32_t lhsZp, float rhsScale, int32_t rhsZp,
                        float outScale, int32_t outZp, int64_t qmin,
                        int64_t qmax, RoundingRule rule, bool subtract);
/// TVM's qnn.mul: `(lhs - lhsZp) * (rhs - rhsZp)` in i32, requantized from
/// the float32 scale `lhsScale * rhsScale` (zero point 0) to the output's
/// (TVM's fixed point, `rule`), saturated.
int64_t mulQuantizedTVM(int64_t lhs, int64_t rhs, float lhsScale,
                        int32_t lhsZp, float rhsScale, int32_t rhsZp,
                        float outScale, int32_t outZp, int64_t qmin,
                        int64_t qmax, RoundingRule rule);
/// The multiplier of one TVM add/subtract operand, and of TVM's mul.
QuantizedMultiplier tvmOperandMultiplier(float scale, float outScale);
QuantizedMultiplier tvmMulMultiplier(float lhsScale, float rhsScale,
                                     float outScale);
int64_t addQuantizedONNX(int64_t lhs, int64_t rhs, float lhsScale,
                         int32_t lhsZp, float rhsScale, int32_t rhsZp,
                         float outScale, int32_t outZp, int64_t qmin,
                         int64_t qmax, bool subtract);

int64_t addQuantized(int64_t lhs, int64_t rhs, const AddParams &p, int64_t qmin,
                     int64_t qmax, RoundingRule rule = RoundingRule::TFLite);

/// TFLite's ADD or SUB of two 8-bit operands as one integer affine form:
/// clamp((a * lhs + c * rhs + d) >> q, qmin - zeroPoint, qmax - zeroPoint)
/// + zeroPoint, the shift arithmetic (a floor), every intermediate within
/// int32.
struct AddAffine {
  int32_t a, c, d;
  int q;
  int32_t zeroPoint;
};
/// The affine form of `addQuantized(lhs, rhs, p, qmin, qmax, rule)` (`rule`
/// TFLite or TFLiteSingle) for stored 8-bit operands (`isUnsigned`: 0..255,
/// else -128..127), exact on all 256 x 256 pairs (each is checked), or none:
/// the slopes nearest the real ones, lhsScale / outputScale and
/// +-rhsScale / outputScale, at a scale 2^q that keeps them below 2^22,
/// and the smallest constant d that every pair allows.
std::optional<AddAffine> fitAddAffine(const AddParams &p, RoundingRule rule,
                                      bool isUnsigned, int64_t qmin,
                                      int64_t qmax);

/// The multiplier of TFLite's quantized MUL:
/// `double(lhsScale) * double(rhsScale) / double(outputScale)`.
QuantizedMultiplier computeMulMultiplier(float lhsScale, float rhsScale,
                                         float outputScale);

/// TFLite's quantized MUL with the rescale of `rule` (`TFLite` or
/// `TFLiteSingle`).
int64_t mulQuantized(int64_t lhs, int64_t rhs, int32_t lhsZp, int32_t rhsZp,
                     QuantizedMultiplier m, int32_t outputZp, int64_t qmin,
                     int64_t qmax, RoundingRule rule = RoundingRule::TFLite);

/// Parameters of TFLite's quantized LEAKY_RELU. TFLite computes both real
/// multipliers in float32 (`input_scale * alpha / output_scale` and
/// `input_scale / output_scale`) and only then widens them to double.
struct LeakyReluParams {
  QuantizedMultiplier identity, alpha;
};
LeakyReluParams computeLeakyReluParams(float inputScale, float alpha,
                                       float outputScale);
/// TFLite's `QuantizeLeakyRelu` of one value: `x - inZp`, rescaled (`rule`:
/// one of TFLite's two) by the identity multiplier when >= 0 and the alpha one otherwise,
/// plus `outZp`, clamped.
int64_t leakyReluQuantized(int64_t x, int32_t inputZeroPoint,
                           const LeakyReluParams &p, int32_t outputZeroPoint,
                           int64_t qmin, int64_t qmax,
                           RoundingRule rule = RoundingRule::TFLite);

/// TFLite's `ConcatenationWithScaling` of one value of an input whose
/// parameters differ from the output's. TFLite does this in float32:
/// `scale = inScale * (1 / outScale)`, `bias = -inZp * scale`,
/// `round_half_away(x * scale + bias) + outZp`, clamped (no FMA contraction).
/// (TFLite's int8 CONCATENATION requires equal parameters and copies; its
/// uint8 kernel uses this formula.) Inputs with equal parameters are copied
/// by the caller.
struct ConcatRescaleParams {
  float scale = 1.0f; ///< inScale * (1 / outScale), float32
  float bias = 0.0f;  ///< -inZp * scale, float32
};
ConcatRescaleParams computeConcatRescaleParams(float inputScale,
                                               int32_t inputZeroPoint,
                                               float outputScale);
/// Whether the float32 rescale stays finite for every 32-bit input: its
/// factor is finite and at most 2^64 (then |x * scale + bias| < 2^96).
bool isRepresentableConcatRescale(float inputScale, int32_t inputZeroPoint,
                                  float outputScale);
/// Rounds and clamps the float32 rescale `x * p.scale + p.bias` as above.
int64_t concatRescale(int64_t x, const ConcatRescaleParams &p,
                      int32_t outputZeroPoint, int64_t qmin, int64_t qmax);
int64_t concatRescale(int64_t x, float inputScale, int32_t inputZeroPoint,
                      float outputScale, int32_t outputZeroPoint, int64_t qmin,
                      int64_t qmax);

/// tosa.cast from float to an integer of range [qmin, qmax]: round half to
/// even, saturate, NaN gives 0 (the TOSA 1.0 specification's rule).
int64_t castFloatToInt(float x, int64_t qmin, int64_t qmax);

/// TFLite's PopulateSoftmaxLookupTable for LOG_SOFTMAX (beta 1):
/// table[255 - d] = expf(-inputScale * d) for d = 0..255, in float32.
std::array<float, 256> tfliteLogSoftmaxTable(float inputScale);

/// TFLite's optimized int8/uint8 LogSoftmax on one row of stored values
/// (qnn.log_softmax's rule): the row's maximum, the float32 sum of the
/// table entries in index order, logf, then rint and saturation.
/// `row` and `out` hold `depth` values.
void logSoftmaxRow(const int64_t *row, int64_t depth,
                   const std::array<float, 256> &table, float inputScale,
                   float outputScale, int32_t outputZp, int64_t qmin,
                   int64_t qmax, int64_t *out);

/// `v` rounded to IEEE half precision (to nearest, ties to even; beyond
/// the largest half, infinity), returned as a float.
float roundToHalf(double v);

/// TVM's dequantize to float16: f16(f16(scale) * f16(q - zeroPoint)).
float dequantizeValueF16(int64_t q, float scale, int32_t zeroPoint);

} // namespace mlir::qnn::math

#endif // QNN_UTILS_QUANTMATH_H
