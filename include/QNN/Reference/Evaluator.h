//===- Evaluator.h - exact reference evaluator of qnn programs --*- C++ -*-===//
//
// The reference semantics of qnn-mlir: a plain, loop-by-loop interpreter of a
// `func.func` made of qnn ops and the upstream ops qnn programs use. Every
// integer rule comes from QNN/Utils/QuantMath.h; this file only walks
// tensors. Other dialects (npu) extend it by registering an evaluate function
// per op name.
//
//===----------------------------------------------------------------------===//

#ifndef QNN_REFERENCE_EVALUATOR_H
#define QNN_REFERENCE_EVALUATOR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::qnn::reference {

/// A concrete tensor. Integer element types keep their values in `ints`,
/// read with the type's signedness (ui8 in [0, 255], i8 and signless i8 in
/// [-128, 127]); f32 keeps them in `floats`. Row-major.
struct Tensor {
  Type elementType;
  SmallVector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<float> floats;

  /// A zero-filled tensor.
  static Tensor zeros(Type elementType, ArrayRef<int64_t> shape);
  /// A zero-filled tensor of a static ranked tensor type.
  static Tensor zeros(RankedTensorType type);

  bool isFloat() const;
  int64_t numElements() const;
  /// Row-major strides of `shape`.
  SmallVector<int64_t> strides() const;
  /// Element `i` widened to double (for printing and checksums).
  double valueAsDouble(int64_t i) const;
};

/// Whether `type` is an element type the evaluator can hold (integers up to
/// 64 bits, index for scalar indices, f32).
bool isSupportedElementType(Type type);

/// `value` wrapped to the range of the integer type `type` (two's complement
/// truncation, then read with the type's signedness).
int64_t wrapToType(int64_t value, Type type);

class Evaluator;

/// Evaluates one op: `operands` are the op's operands in order (a null
/// pointer for an operand that is not a tensor value the evaluator tracks,
/// e.g. a `!tosa.shape`); the function appends one Tensor per result.
/// On failure it must emit a diagnostic on `op`.
using OpEvaluateFn = std::function<LogicalResult(
    Operation *op, ArrayRef<const Tensor *> operands,
    SmallVectorImpl<Tensor> &results, Evaluator &evaluator)>;

/// The interpreter. Construct it on a module; it knows the qnn ops and the
/// upstream ops listed in docs/Arithmetic.md. Add more with `registerOp`.
class Evaluator {
public:
  explicit Evaluator(ModuleOp module);

  /// Registers (or replaces) the evaluate function of ops named `opName`
  /// (e.g. "npu.conv2d").
  void registerOp(StringRef opName, OpEvaluateFn fn);
  bool hasOp(StringRef opName) const { return handlers.count(opName); }

  /// Runs `func` on `arguments` (one per function argument, of matching
  /// type). Emits a diagnostic and fails on the first unsupported op or bad
  /// value.
  FailureOr<SmallVector<Tensor>> run(func::FuncOp func,
                                     ArrayRef<Tensor> arguments);

  ModuleOp getModule() { return module; }

  /// The value computed for `value` in the function being run, or null. Lets
  /// an op read values its regions capture (e.g. a tensor.pad yield).
  const Tensor *lookupValue(Value value) const;

private:
  ModuleOp module;
  DenseMap<Value, Tensor> *frame = nullptr;
  llvm::StringMap<OpEvaluateFn> handlers;
  unsigned callDepth = 0;
};

/// The evaluate functions of the qnn ops.
void registerQNNEvaluators(Evaluator &evaluator);
/// The evaluate functions of the upstream ops qnn programs use (arith, tosa,
/// tensor, linalg.softmax, func.call).
void registerUpstreamEvaluators(Evaluator &evaluator);

} // namespace mlir::qnn::reference

#endif // QNN_REFERENCE_EVALUATOR_H
