//===- Evaluator.cpp - the interpreter core -------------------------------===//

#include "QNN/Reference/Evaluator.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::qnn::reference;

Tensor Tensor::zeros(Type elementType, ArrayRef<int64_t> shape) {
  Tensor t;
  t.elementType = elementType;
  t.shape.assign(shape.begin(), shape.end());
  if (isa<FloatType>(elementType))
    t.floats.assign(t.numElements(), 0.0f);
  else
    t.ints.assign(t.numElements(), 0);
  return t;
}

Tensor Tensor::zeros(RankedTensorType type) {
  return zeros(type.getElementType(), type.getShape());
}

bool Tensor::isFloat() const { return isa<FloatType>(elementType); }

int64_t Tensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

SmallVector<int64_t> Tensor::strides() const {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i)
    s[i] = s[i + 1] * shape[i + 1];
  return s;
}

double Tensor::valueAsDouble(int64_t i) const {
  return isFloat() ? static_cast<double>(floats[i])
                   : static_cast<double>(ints[i]);
}

bool mlir::qnn::reference::isSupportedElementType(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() >= 1 && intType.getWidth() <= 64;
  return type.isF32() || type.isIndex();
}

int64_t mlir::qnn::reference::wrapToType(int64_t value, Type type) {
  auto intType = dyn_cast<IntegerType>(type);
  if (!intType) // index
    return value;
  unsigned width = intType.getWidth();
  if (width >= 64)
    return value;
  uint64_t mask = (uint64_t(1) << width) - 1;
  uint64_t bits = static_cast<uint64_t>(value) & mask;
  if (!intType.isUnsigned() && (bits >> (width - 1)) & 1)
    return static_cast<int64_t>(bits | ~mask);
  return static_cast<int64_t>(bits);
}

Evaluator::Evaluator(ModuleOp module) : module(module) {
  registerUpstreamEvaluators(*this);
  registerQNNEvaluators(*this);
}

const Tensor *Evaluator::lookupValue(Value value) const {
  if (!frame)
    return nullptr;
  auto it = frame->find(value);
  return it == frame->end() ? nullptr : &it->second;
}

void Evaluator::registerOp(StringRef opName, OpEvaluateFn fn) {
  handlers[opName] = std::move(fn);
}

static LogicalResult checkValueType(Operation *op, Value value,
                                    const Tensor &tensor, StringRef what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type)
    return success(); // Not a tensor (e.g. !tosa.shape): nothing to check.
  if (type.getElementType() != tensor.elementType ||
      (type.hasStaticShape() &&
       ArrayRef<int64_t>(type.getShape()) != ArrayRef<int64_t>(tensor.shape)))
    return op->emitError() << "reference evaluator: " << what << " of type "
                           << type << " got a value of shape ["
                           << tensor.shape.size() << "-d] and element type "
                           << tensor.elementType;
  return success();
}

FailureOr<SmallVector<Tensor>> Evaluator::run(func::FuncOp func,
                                              ArrayRef<Tensor> arguments) {
  if (func.isExternal())
    return func.emitError() << "reference evaluator: function @"
                            << func.getSymName() << " has no body";
  if (!func.getBody().hasOneBlock())
    return func.emitError()
           << "reference evaluator: only single-block functions are "
              "supported, @"
           << func.getSymName() << " has " << func.getBody().getBlocks().size();
  if (callDepth > 64)
    return func.emitError() << "reference evaluator: call depth exceeds 64 "
                               "(recursion?)";
  Block &block = func.getBody().front();
  if (block.getNumArguments() != arguments.size())
    return func.emitError()
           << "reference evaluator: @" << func.getSymName() << " takes "
           << block.getNumArguments() << " arguments, got " << arguments.size();

  DenseMap<Value, Tensor> values;
  for (auto [arg, tensor] : llvm::zip(block.getArguments(), arguments)) {
    if (failed(checkValueType(func, arg, tensor, "argument")))
      return failure();
    values[arg] = tensor;
  }

  ++callDepth;
  DenseMap<Value, Tensor> *callerFrame = frame;
  frame = &values;
  llvm::scope_exit exitCall([&] {
    --callDepth;
    frame = callerFrame;
  });
  for (Operation &op : block) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Tensor> results;
      for (Value v : ret.getOperands()) {
        auto it = values.find(v);
        if (it == values.end())
          return ret.emitError()
                 << "reference evaluator: returned value was not computed";
        results.push_back(it->second);
      }
      return results;
    }
    auto it = handlers.find(op.getName().getStringRef());
    if (it == handlers.end())
      return op.emitError()
             << "reference evaluator: unsupported op '" << op.getName() << "'";
    SmallVector<const Tensor *> operands;
    for (Value v : op.getOperands()) {
      auto found = values.find(v);
      operands.push_back(found == values.end() ? nullptr : &found->second);
      if (!operands.back() && isa<RankedTensorType>(v.getType()))
        return op.emitError()
               << "reference evaluator: operand #" << operands.size() - 1
               << " has no value (defined in another region?)";
    }
    SmallVector<Tensor> results;
    if (failed(it->second(&op, operands, results, *this)))
      return failure();
    if (results.size() != op.getNumResults())
      return op.emitError()
             << "reference evaluator: evaluation of '" << op.getName()
             << "' produced " << results.size() << " values for "
             << op.getNumResults() << " results";
    for (auto [result, tensor] : llvm::zip(op.getResults(), results)) {
      if (failed(checkValueType(&op, result, tensor, "result")))
        return failure();
      values[result] = std::move(tensor);
    }
  }
  return func.emitError() << "reference evaluator: @" << func.getSymName()
                          << " has no func.return";
}
