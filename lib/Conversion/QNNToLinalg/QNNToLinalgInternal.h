//===- QNNToLinalgInternal.h - shared pieces of the qnn lowering -*- C++ -*-===//

#ifndef QNN_LIB_CONVERSION_QNNTOLINALG_INTERNAL_H
#define QNN_LIB_CONVERSION_QNNTOLINALG_INTERNAL_H

#include "QNN/IR/QNNOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qnn::lowering {

/// An integer constant of `type` (wrapping `value` to its width).
Value intConst(OpBuilder &b, Location loc, Type type, int64_t value);

/// Integer resize with zero extension for unsigned storage.
Value extendTo(OpBuilder &b, Location loc, Value v, Type type,
               bool isUnsigned);

/// TFLite's MultiplyByQuantizedMultiplier on an i32 value; see QuantMath.
Value emitMultiplyByQuantizedMultiplier(OpBuilder &b, Location loc, Value x,
                                        Value multiplier, Value leftShift,
                                        Value rightShift);

/// The same tensor type with a signless element type.
RankedTensorType signlessTensor(RankedTensorType type);

/// A tensor of `shape` filled with an integer.
Value emptyFilled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType, int64_t fill);

/// AVX512-VNNI lowering of a pointwise convolution / dense layer, or
/// failure (nothing created) when the op is not eligible. `input` is the
/// signless input.
FailureOr<Value> lowerPointwiseConvVNNI(RewriterBase &rewriter, Conv2DOp op,
                                        Value input);
FailureOr<Value> lowerDenseVNNI(RewriterBase &rewriter, DenseOp op,
                                Value input);

} // namespace mlir::qnn::lowering

#endif // QNN_LIB_CONVERSION_QNNTOLINALG_INTERNAL_H
