//===- Evaluator.h - exact reference evaluation of qnn programs -*- C++ -*-===//
//
// The oracle of qnn-mlir: evaluates a func.func made of qnn ops and the
// upstream ops qnn programs use, on concrete tensors, with plain loops. Every
// quantized rule comes from QNN/Utils/QuantMath.h, so this is the executable
// form of the op descriptions; fusions and lowerings are tested against it.
//
// Other dialects extend it by registering an evaluation function per op name
// (`Evaluator::registerOp`), e.g. the npu dialect's fused ops.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_REFERENCE_EVALUATOR_H
#define QNN_REFERENCE_EVALUATOR_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <vector>

namespace mlir::qnn::ref {

/// A concrete tensor (rank 0 for scalars). Integer elements live in `ints`
/// (already sign- or zero-extended according to the element type), float
/// elements in `floats`.
struct Tensor {
  Type elementType;
  SmallVector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<float> floats;

  Tensor() = default;
  Tensor(Type elementType, ArrayRef<int64_t> shape);
  int64_t numElements() const;
  bool isFloat() const { return isa<FloatType>(elementType); }
  /// Row-major strides of `shape`.
  SmallVector<int64_t> strides() const;
};

/// Wraps `value` into the range of the integer type (two's complement
/// truncation), interpreting it as signed or unsigned like the type.
int64_t wrapToType(int64_t value, Type elementType);
/// Clamps `value` into the range of the integer type.
int64_t saturateToType(int64_t value, Type elementType);

/// Evaluates one op: `operands` are the op's operand values in order; fill
/// `results` with one tensor per op result. Emit an error on `op` and return
/// failure for anything unsupported.
using OpEvaluator =
    std::function<LogicalResult(Operation *op, ArrayRef<Tensor> operands,
                                SmallVectorImpl<Tensor> &results)>;

class Evaluator {
public:
  /// An evaluator that knows the qnn ops and the upstream ops qnn programs
  /// use (arith.constant, tensor.pad/extract/empty/reshapes, tosa
  /// add/sub/clamp/cast/transpose/reshape, linalg.softmax/transpose,
  /// func.call/return).
  Evaluator();

  void registerOp(StringRef name, OpEvaluator evaluator);

  /// Runs `func` on `inputs` (one per argument, matching the argument types).
  FailureOr<SmallVector<Tensor>> run(func::FuncOp func,
                                     ArrayRef<Tensor> inputs);

private:
  llvm::StringMap<OpEvaluator> evaluators;
};

/// Tensor from the bytes of a little-endian row-major buffer of `type`.
FailureOr<Tensor> tensorFromBytes(RankedTensorType type, ArrayRef<char> bytes,
                                  std::string &error);
/// The little-endian row-major bytes of `tensor`.
std::vector<char> tensorToBytes(const Tensor &tensor);
/// Storage size in bytes of one element of `type` (i1 counts as one byte).
int64_t elementByteSize(Type type);

} // namespace mlir::qnn::ref

#endif // QNN_REFERENCE_EVALUATOR_H
