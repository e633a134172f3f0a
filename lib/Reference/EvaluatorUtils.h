//===- EvaluatorUtils.h - helpers shared by the evaluate functions -------===//

#ifndef QNN_LIB_REFERENCE_EVALUATORUTILS_H
#define QNN_LIB_REFERENCE_EVALUATORUTILS_H

#include "QNN/Reference/Evaluator.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::qnn::reference {

/// The static ranked tensor type of result `i`, or an error.
inline FailureOr<RankedTensorType> staticResultType(Operation *op,
                                                    unsigned i = 0) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(i).getType());
  if (!type || !type.hasStaticShape())
    return op->emitError()
           << "reference evaluator: result must be a statically shaped tensor";
  if (!isSupportedElementType(type.getElementType()))
    return op->emitError() << "reference evaluator: unsupported element type "
                           << type.getElementType();
  return type;
}

inline LogicalResult requireOperands(Operation *op,
                                     ArrayRef<const Tensor *> operands,
                                     unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    if (i >= operands.size() || !operands[i])
      return op->emitError()
             << "reference evaluator: operand #" << i << " is not a tensor";
  return success();
}

/// Index into a broadcast operand of the NumPy-broadcast output element whose
/// multi-index is `index` (right-aligned, size-1 dimensions stretch).
inline int64_t broadcastIndex(const Tensor &operand, ArrayRef<int64_t> index,
                              ArrayRef<int64_t> operandStrides) {
  int64_t offset = 0;
  size_t rank = operand.shape.size();
  size_t outRank = index.size();
  for (size_t d = 0; d < rank; ++d) {
    int64_t i = index[outRank - rank + d];
    if (operand.shape[d] != 1)
      offset += i * operandStrides[d];
  }
  return offset;
}

/// Visits every element of `shape` in row-major order with its multi-index.
inline void
forEachIndex(ArrayRef<int64_t> shape,
             llvm::function_ref<void(ArrayRef<int64_t>, int64_t)> fn) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  SmallVector<int64_t> index(shape.size(), 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    fn(index, linear);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

inline LogicalResult checkBroadcast(Operation *op, const Tensor &operand,
                                    ArrayRef<int64_t> outShape) {
  if (operand.shape.size() > outShape.size())
    return op->emitError() << "reference evaluator: operand rank "
                           << operand.shape.size()
                           << " exceeds the result rank " << outShape.size();
  size_t offset = outShape.size() - operand.shape.size();
  for (size_t d = 0; d < operand.shape.size(); ++d)
    if (operand.shape[d] != 1 && operand.shape[d] != outShape[offset + d])
      return op->emitError()
             << "reference evaluator: operand dimension " << d << " of size "
             << operand.shape[d] << " does not broadcast to "
             << outShape[offset + d];
  return success();
}

} // namespace mlir::qnn::reference

#endif // QNN_LIB_REFERENCE_EVALUATORUTILS_H
