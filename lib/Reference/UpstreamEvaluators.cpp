//===- UpstreamEvaluators.cpp - arith/tosa/tensor/linalg/func ops ---------===//
//
// The upstream ops that surround qnn ops in a qnn program, evaluated with
// plain loops. Integer tosa arithmetic wraps to the result type; see
// docs/Arithmetic.md for the exact rules.
//
//===----------------------------------------------------------------------===//

#include "EvaluatorUtils.h"
#include "QNN/Utils/QuantMath.h"
#include "QNN/Utils/QuantUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::reference;

namespace {

/// Integer value of an integer attribute, read with `type`'s signedness.
int64_t readInt(const APInt &value, Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType) // index
    return value.getSExtValue();
  if (intType.getWidth() == 1)
    return value.getZExtValue();
  return intType.isUnsigned() ? static_cast<int64_t>(value.getZExtValue())
                              : value.getSExtValue();
}

LogicalResult fillFromElements(Operation *op, ElementsAttr attr, Tensor &t) {
  auto dense = dyn_cast<DenseElementsAttr>(attr);
  if (!dense)
    return op->emitError() << "reference evaluator: only dense constants are "
                              "supported (resource blobs are not)";
  int64_t n = t.numElements();
  if (t.isFloat()) {
    auto values = dense.getValues<APFloat>();
    for (int64_t i = 0; i < n; ++i)
      t.floats[i] = values[dense.isSplat() ? 0 : i].convertToFloat();
  } else {
    auto values = dense.getValues<APInt>();
    for (int64_t i = 0; i < n; ++i)
      t.ints[i] = readInt(values[dense.isSplat() ? 0 : i], t.elementType);
  }
  return success();
}

LogicalResult evalConstant(Operation *op, ArrayRef<const Tensor *>,
                           SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto constant = cast<arith::ConstantOp>(op);
  Attribute value = constant.getValue();
  if (auto elements = dyn_cast<ElementsAttr>(value)) {
    FailureOr<RankedTensorType> type = staticResultType(op);
    if (failed(type))
      return failure();
    Tensor t = Tensor::zeros(*type);
    if (failed(fillFromElements(op, elements, t)))
      return failure();
    results.push_back(std::move(t));
    return success();
  }
  // A scalar: a rank-0 tensor (used by tensor.pad yields and the like).
  Type type = constant.getType();
  if (!isSupportedElementType(type))
    return op->emitError() << "reference evaluator: unsupported constant type "
                           << type;
  Tensor t = Tensor::zeros(type, {});
  if (auto intAttr = dyn_cast<IntegerAttr>(value))
    t.ints[0] = readInt(intAttr.getValue(), type);
  else if (auto floatAttr = dyn_cast<FloatAttr>(value))
    t.floats[0] = floatAttr.getValue().convertToFloat();
  results.push_back(std::move(t));
  return success();
}

/// tosa.const: the `values` attribute.
LogicalResult evalTosaConst(Operation *op, ArrayRef<const Tensor *>,
                            SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto values = dyn_cast_or_null<ElementsAttr>(op->getAttr("values"));
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(type))
    return failure();
  if (!values)
    return op->emitError() << "reference evaluator: tosa.const without "
                              "'values'";
  Tensor t = Tensor::zeros(*type);
  if (failed(fillFromElements(op, values, t)))
    return failure();
  results.push_back(std::move(t));
  return success();
}

enum class TosaBinary { Add, Sub, Mul };

LogicalResult evalTosaBinary(Operation *op, ArrayRef<const Tensor *> operands,
                             SmallVectorImpl<Tensor> &results,
                             TosaBinary kind) {
  if (failed(requireOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(type))
    return failure();
  const Tensor &lhs = *operands[0], &rhs = *operands[1];
  Tensor out = Tensor::zeros(*type);
  if (lhs.elementType != out.elementType || rhs.elementType != out.elementType)
    return op->emitError() << "reference evaluator: operand and result "
                              "element types differ";
  if (failed(checkBroadcast(op, lhs, out.shape)) ||
      failed(checkBroadcast(op, rhs, out.shape)))
    return failure();
  int64_t shift = 0;
  if (kind == TosaBinary::Mul && operands.size() > 2 && operands[2])
    shift = operands[2]->ints.empty() ? 0 : operands[2]->ints[0];
  if (shift < 0 || shift > 63)
    return op->emitError() << "reference evaluator: tosa.mul shift " << shift
                           << " out of range";
  SmallVector<int64_t> ls = lhs.strides(), rs = rhs.strides();
  forEachIndex(out.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t li = broadcastIndex(lhs, index, ls);
    int64_t ri = broadcastIndex(rhs, index, rs);
    if (out.isFloat()) {
      float a = lhs.floats[li], b = rhs.floats[ri];
      out.floats[linear] = kind == TosaBinary::Add   ? a + b
                           : kind == TosaBinary::Sub ? a - b
                                                     : a * b;
      return;
    }
    // 64-bit arithmetic wrapped to the result type (TOSA leaves overflow
    // undefined; wrapping is what two's-complement hardware does).
    uint64_t a = static_cast<uint64_t>(lhs.ints[li]);
    uint64_t b = static_cast<uint64_t>(rhs.ints[ri]);
    int64_t v;
    if (kind == TosaBinary::Add)
      v = static_cast<int64_t>(a + b);
    else if (kind == TosaBinary::Sub)
      v = static_cast<int64_t>(a - b);
    else {
      v = static_cast<int64_t>(a * b);
      if (shift > 0) // TOSA MUL on i32: (a * b + 2^(shift-1)) >> shift.
        v = (v + (int64_t(1) << (shift - 1))) >> shift;
    }
    out.ints[linear] = wrapToType(v, out.elementType);
  });
  results.push_back(std::move(out));
  return success();
}

/// Integer or float value of a tosa.clamp bound.
LogicalResult readBound(Operation *op, StringRef name, Type elementType,
                        int64_t &intValue, float &floatValue) {
  Attribute attr = op->getAttr(name);
  if (auto i = dyn_cast_or_null<IntegerAttr>(attr)) {
    intValue = readInt(i.getValue(),
                       elementType.isInteger() ? elementType : i.getType());
    floatValue = static_cast<float>(intValue);
    return success();
  }
  if (auto f = dyn_cast_or_null<FloatAttr>(attr)) {
    floatValue = f.getValue().convertToFloat();
    return success();
  }
  return op->emitError() << "reference evaluator: missing '" << name << "'";
}

LogicalResult evalClamp(Operation *op, ArrayRef<const Tensor *> operands,
                        SmallVectorImpl<Tensor> &results, Evaluator &) {
  if (failed(requireOperands(op, operands, 1)))
    return failure();
  Tensor out = *operands[0];
  int64_t imin = 0, imax = 0;
  float fmin = 0, fmax = 0;
  if (failed(readBound(op, "min_val", out.elementType, imin, fmin)) ||
      failed(readBound(op, "max_val", out.elementType, imax, fmax)))
    return failure();
  for (int64_t &v : out.ints)
    v = std::clamp(v, imin, imax);
  for (float &v : out.floats)
    v = std::isnan(v) ? v : std::min(std::max(v, fmin), fmax);
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalCast(Operation *op, ArrayRef<const Tensor *> operands,
                       SmallVectorImpl<Tensor> &results, Evaluator &) {
  if (failed(requireOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(type))
    return failure();
  const Tensor &in = *operands[0];
  Tensor out = Tensor::zeros(*type);
  for (int64_t i = 0, e = in.numElements(); i < e; ++i) {
    if (!in.isFloat() && !out.isFloat()) {
      out.ints[i] = wrapToType(in.ints[i], out.elementType);
    } else if (!in.isFloat()) {
      out.floats[i] = static_cast<float>(in.ints[i]);
    } else if (out.isFloat()) {
      out.floats[i] = in.floats[i];
    } else {
      auto [qmin, qmax] = getStorageRange(out.elementType);
      out.ints[i] = math::castFloatToInt(in.floats[i], qmin, qmax);
    }
  }
  results.push_back(std::move(out));
  return success();
}

/// Reshapes keep the row-major data and take the (static) result shape.
LogicalResult evalReshape(Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
  if (failed(requireOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(type))
    return failure();
  Tensor out = *operands[0];
  out.shape.assign(type->getShape().begin(), type->getShape().end());
  if (out.numElements() != operands[0]->numElements())
    return op->emitError() << "reference evaluator: reshape changes the "
                              "number of elements";
  results.push_back(std::move(out));
  return success();
}

/// Operands that are shapes, not data (tosa.const_shape): a placeholder.
LogicalResult evalPlaceholder(Operation *op, ArrayRef<const Tensor *>,
                              SmallVectorImpl<Tensor> &results, Evaluator &) {
  for (unsigned i = 0; i < op->getNumResults(); ++i)
    results.push_back(Tensor());
  return success();
}

LogicalResult evalEmpty(Operation *op, ArrayRef<const Tensor *>,
                        SmallVectorImpl<Tensor> &results, Evaluator &) {
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(type))
    return failure();
  results.push_back(Tensor::zeros(*type));
  return success();
}

LogicalResult evalPad(Operation *op, ArrayRef<const Tensor *> operands,
                      SmallVectorImpl<Tensor> &results, Evaluator &evaluator) {
  auto pad = cast<tensor::PadOp>(op);
  if (failed(requireOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> type = staticResultType(op);
  if (failed(type))
    return failure();
  // The yield is a constant or a scalar computed before the pad.
  Value padValue = pad.getConstantPaddingValue();
  Attribute padAttr;
  const Tensor *padScalar =
      padValue ? evaluator.lookupValue(padValue) : nullptr;
  if (!padValue || (!matchPattern(padValue, m_Constant(&padAttr)) &&
                    (!padScalar || padScalar->numElements() != 1)))
    return op->emitError() << "reference evaluator: tensor.pad must yield a "
                              "constant or a value defined before it";
  if (!pad.getLow().empty() || !pad.getHigh().empty())
    return op->emitError() << "reference evaluator: dynamic padding is not "
                              "supported";
  const Tensor &in = *operands[0];
  Tensor out = Tensor::zeros(*type);
  if (!padAttr && out.isFloat())
    std::fill(out.floats.begin(), out.floats.end(), padScalar->floats[0]);
  else if (!padAttr)
    std::fill(out.ints.begin(), out.ints.end(), padScalar->ints[0]);
  else if (auto i = dyn_cast<IntegerAttr>(padAttr))
    std::fill(out.ints.begin(), out.ints.end(),
              readInt(i.getValue(), out.elementType));
  else if (auto f = dyn_cast<FloatAttr>(padAttr))
    std::fill(out.floats.begin(), out.floats.end(),
              f.getValue().convertToFloat());
  ArrayRef<int64_t> low = pad.getStaticLow();
  SmallVector<int64_t> outStrides = out.strides();
  forEachIndex(in.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    int64_t o = 0;
    for (size_t d = 0; d < index.size(); ++d)
      o += (index[d] + low[d]) * outStrides[d];
    if (out.isFloat())
      out.floats[o] = in.floats[linear];
    else
      out.ints[o] = in.ints[linear];
  });
  results.push_back(std::move(out));
  return success();
}

/// tensor.extract of one element as a rank-0 value.
LogicalResult evalExtract(Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
  if (failed(requireOperands(op, operands, operands.size())))
    return failure();
  const Tensor &in = *operands[0];
  SmallVector<int64_t> strides = in.strides();
  int64_t offset = 0;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    int64_t i = operands[d + 1]->ints.empty() ? -1 : operands[d + 1]->ints[0];
    if (i < 0 || i >= in.shape[d])
      return op->emitError() << "reference evaluator: index " << i
                             << " out of bounds for dimension " << d;
    offset += i * strides[d];
  }
  Tensor out = Tensor::zeros(in.elementType, {});
  if (in.isFloat())
    out.floats[0] = in.floats[offset];
  else
    out.ints[0] = in.ints[offset];
  results.push_back(std::move(out));
  return success();
}

/// linalg.softmax in float32: exp(x - max) / sum(exp(x - max)) along the
/// dimension, summing in index order.
LogicalResult evalSoftmax(Operation *op, ArrayRef<const Tensor *> operands,
                          SmallVectorImpl<Tensor> &results, Evaluator &) {
  auto softmax = cast<linalg::SoftmaxOp>(op);
  if (failed(requireOperands(op, operands, 1)))
    return failure();
  const Tensor &in = *operands[0];
  if (!in.isFloat())
    return op->emitError() << "reference evaluator: linalg.softmax needs a "
                              "float input";
  int64_t dim = static_cast<int64_t>(softmax.getDimension());
  Tensor out = in;
  SmallVector<int64_t> strides = in.strides();
  int64_t size = in.shape[dim], stride = strides[dim];
  forEachIndex(in.shape, [&](ArrayRef<int64_t> index, int64_t linear) {
    if (index[dim] != 0)
      return;
    float maxValue = in.floats[linear];
    for (int64_t k = 1; k < size; ++k)
      maxValue = std::max(maxValue, in.floats[linear + k * stride]);
    float sum = 0.0f;
    for (int64_t k = 0; k < size; ++k) {
      float e = std::exp(in.floats[linear + k * stride] - maxValue);
      out.floats[linear + k * stride] = e;
      sum += e;
    }
    for (int64_t k = 0; k < size; ++k)
      out.floats[linear + k * stride] /= sum;
  });
  results.push_back(std::move(out));
  return success();
}

LogicalResult evalCall(Operation *op, ArrayRef<const Tensor *> operands,
                       SmallVectorImpl<Tensor> &results, Evaluator &evaluator) {
  auto call = cast<func::CallOp>(op);
  auto callee =
      evaluator.getModule().lookupSymbol<func::FuncOp>(call.getCalleeAttr());
  if (!callee)
    return op->emitError() << "reference evaluator: unknown callee "
                           << call.getCalleeAttr();
  SmallVector<Tensor> arguments;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    if (!operand)
      return op->emitError() << "reference evaluator: call operand #" << i
                             << " is not a tensor";
    arguments.push_back(*operand);
  }
  FailureOr<SmallVector<Tensor>> returned = evaluator.run(callee, arguments);
  if (failed(returned))
    return op->emitError() << "reference evaluator: in call to "
                           << call.getCalleeAttr();
  results.append(returned->begin(), returned->end());
  return success();
}

} // namespace

void mlir::qnn::reference::registerUpstreamEvaluators(Evaluator &evaluator) {
  evaluator.registerOp("arith.constant", evalConstant);
  evaluator.registerOp("tosa.const", evalTosaConst);
  evaluator.registerOp(
      "tosa.add", [](Operation *op, ArrayRef<const Tensor *> operands,
                     SmallVectorImpl<Tensor> &results, Evaluator &) {
        return evalTosaBinary(op, operands, results, TosaBinary::Add);
      });
  evaluator.registerOp(
      "tosa.sub", [](Operation *op, ArrayRef<const Tensor *> operands,
                     SmallVectorImpl<Tensor> &results, Evaluator &) {
        return evalTosaBinary(op, operands, results, TosaBinary::Sub);
      });
  evaluator.registerOp(
      "tosa.mul", [](Operation *op, ArrayRef<const Tensor *> operands,
                     SmallVectorImpl<Tensor> &results, Evaluator &) {
        return evalTosaBinary(op, operands, results, TosaBinary::Mul);
      });
  evaluator.registerOp("tosa.clamp", evalClamp);
  evaluator.registerOp("tosa.cast", evalCast);
  evaluator.registerOp("tosa.reshape", evalReshape);
  evaluator.registerOp("tosa.const_shape", evalPlaceholder);
  evaluator.registerOp("tensor.collapse_shape", evalReshape);
  evaluator.registerOp("tensor.expand_shape", evalReshape);
  evaluator.registerOp("tensor.reshape", evalReshape);
  evaluator.registerOp("tensor.empty", evalEmpty);
  evaluator.registerOp("tensor.pad", evalPad);
  evaluator.registerOp("tensor.extract", evalExtract);
  evaluator.registerOp("linalg.softmax", evalSoftmax);
  evaluator.registerOp("func.call", evalCall);
}
