//===- QuantUtils.h - MLIR-facing quantization helpers ----------*- C++ -*-===//

#ifndef QNN_UTILS_QUANTUTILS_H
#define QNN_UTILS_QUANTUTILS_H

#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/QuantMath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace mlir::qnn {

/// [min, max] of the integer storage type: ui8 is [0, 255], i8 and si8 are
/// [-128, 127], and so on for other widths.
inline std::pair<int64_t, int64_t> getStorageRange(Type elementType) {
  auto intType = cast<IntegerType>(elementType);
  unsigned width = intType.getWidth();
  // 64-bit storage (INT64 tensors): the whole int64 range (an unsigned
  // 64-bit maximum does not fit and is capped).
  if (width >= 64)
    return {intType.isUnsigned() ? 0 : std::numeric_limits<int64_t>::min(),
            std::numeric_limits<int64_t>::max()};
  if (intType.isUnsigned())
    return {0, static_cast<int64_t>((uint64_t(1) << width) - 1)};
  return {-(int64_t(1) << (width - 1)), (int64_t(1) << (width - 1)) - 1};
}

/// Emits an error on `op` unless `real` (described by `what`, e.g.
/// "input_scale / output_scale") has a fixed-point form.
inline LogicalResult verifyMultiplier(Operation *op, StringRef what,
                                      double real) {
  if (math::isRepresentableMultiplier(real))
    return success();
  return op->emitOpError()
         << "rescale multiplier " << what << " = " << real
         << " has no fixed-point form (it must be finite with magnitude "
            "below 2^29)";
}

/// The output multiplier of TFLite's ADD/SUB sequence,
/// `2 * max(lhs, rhs) / (2^20 * output)` (the input ones are <= 1/2), must
/// have a fixed-point form.
inline LogicalResult verifyAddOutputMultiplier(Operation *op, double lhsScale,
                                               double rhsScale,
                                               double outputScale) {
  return verifyMultiplier(
      op, "2 * max(lhs_scale, rhs_scale) / (2^20 * output_scale)",
      2.0 * std::max(lhsScale, rhsScale) / ((1 << 20) * outputScale));
}

/// TFLite's ADD and MUL compute one sequence with either of TFLite's two
/// rounding rules; TVM's rules belong to a different sequence.
inline LogicalResult verifyTFLiteRounding(Operation *op, Rounding rounding) {
  if (rounding == Rounding::tflite || rounding == Rounding::tflite_single)
    return success();
  return op->emitOpError()
         << "'rounding' must be tflite or tflite_single (TFLite's sequence), "
            "got "
         << stringifyRounding(rounding);
}

/// ADD, SUB and MUL: TFLite's fixed-point sequence (either TFLite rule) or
/// ONNX's float32 sequence (QLinearAdd/QLinearMul: dequantize, compute,
/// quantize).
inline LogicalResult verifyAddRounding(Operation *op, Rounding rounding) {
  if (rounding == Rounding::tflite || rounding == Rounding::tflite_single ||
      rounding == Rounding::onnx)
    return success();
  return op->emitOpError()
         << "'rounding' must be tflite or tflite_single (TFLite's sequence) "
            "or onnx (ONNX's float32 sequence), got "
         << stringifyRounding(rounding);
}

/// The upper bound TFLite gives a fused RELU6: zp + round(6 / scale), at most
/// qmax. The quotient is clamped before the conversion (a denormal scale
/// makes it infinite).
inline int64_t relu6UpperBound(float scale, int64_t zeroPoint, int64_t qmax) {
  float q = std::round(6.0f / scale);
  q = std::clamp(q, -1099511627776.0f, 1099511627776.0f); // 2^40
  return std::min<int64_t>(qmax, zeroPoint + static_cast<int64_t>(q));
}

/// The rule of the leaky ReLU stage of an npu epilogue, given the op's
/// rescale rule: TFLite's single rounding when the op rounds that way (the
/// TFLite 2.x form), gemmlowp's double rounding otherwise (TFLite's
/// default, and what a TVM- or ONNX-rounded op feeds its TFLite leaky ReLU).
inline Rounding leakyEpilogueRounding(Rounding opRounding) {
  return opRounding == Rounding::tflite_single ? Rounding::tflite_single
                                               : Rounding::tflite;
}

inline math::RoundingRule toRoundingRule(Rounding rounding) {
  switch (rounding) {
  case Rounding::tflite:
    return math::RoundingRule::TFLite;
  case Rounding::upward:
    return math::RoundingRule::Upward;
  case Rounding::tonearest:
    return math::RoundingRule::ToNearest;
  case Rounding::tflite_single:
    return math::RoundingRule::TFLiteSingle;
  case Rounding::onnx:
    return math::RoundingRule::ONNX;
  }
  return math::RoundingRule::TFLite;
}

} // namespace mlir::qnn

#endif // QNN_UTILS_QUANTUTILS_H
