//===- QNNOps.h - qnn operators ---------------------------------*- C++ -*-===//

#ifndef QNN_IR_QNNOPS_H
#define QNN_IR_QNNOPS_H

#include "QNN/IR/QNNDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QNN/IR/QNNEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "QNN/IR/QNNAttrs.h.inc"

#define GET_OP_CLASSES
#include "QNN/IR/QNNOps.h.inc"

namespace mlir::qnn {

/// Shape of a convolution or pooling result, or failure with a message
/// written through `emitError` when the window does not fit.
struct WindowGeometry {
  int64_t inH, inW, kH, kW, strideH, strideW, dilH, dilW;
  int64_t padTop, padLeft, padBottom, padRight;
  /// Output height/width; non-positive when the window does not fit.
  int64_t outH() const;
  int64_t outW() const;
};

/// The input positions [begin, end) that a window starting at `origin`
/// (negative inside the leading padding) with `kernel` positions covers in a
/// dimension of `size`; empty (`count() == 0`) when it lies in the padding.
struct WindowSpan {
  int64_t begin, end;
  int64_t count() const { return end > begin ? end - begin : 0; }
};
inline WindowSpan windowOverlap(int64_t origin, int64_t kernel, int64_t size) {
  return {origin > 0 ? origin : 0,
          origin + kernel < size ? origin + kernel : size};
}

/// One spatial dimension of a pooling window with the parts that no output
/// position overlaps with the input cut off: the same windows over the input
/// (and so the same results, since padding is neither summed, counted nor
/// compared), with `kernel` at most the span of input positions the outputs
/// read. A lowering that materializes the padding or iterates over the window
/// stays bounded by the tensors' sizes instead of the attributes' values.
struct PoolWindow1D {
  int64_t kernel, padBefore, padAfter;
};
PoolWindow1D trimPoolWindow(int64_t inSize, int64_t outSize, int64_t kernel,
                            int64_t stride, int64_t padBefore,
                            int64_t padAfter);

/// The 256-entry table of a lookup-table activation (qnn.hardswish,
/// qnn.sigmoid, qnn.tanh, and qnn.leaky_relu with ONNX's rule), indexed by
/// the input byte, built with the op's rounding rule; std::nullopt for any
/// other op.
std::optional<std::array<int32_t, 256>> buildActivationTable(Operation *op);

/// Index of the H, W and C dimensions of an activation tensor.
struct ActivationDims {
  unsigned n, h, w, c;
};
ActivationDims getActivationDims(ActivationLayout layout);

/// Index of the O, I, H and W dimensions of a kernel.
struct KernelDims {
  unsigned o, i, h, w;
};
KernelDims getKernelDims(KernelLayout layout);

} // namespace mlir::qnn

#endif // QNN_IR_QNNOPS_H
