//===- BindParams.cpp - bind function arguments to file constants ---------===//

#include "NPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

namespace mlir::npu {
#define GEN_PASS_DEF_NPUBINDPARAMS
#include "NPU/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;

namespace {

/// The elements of `type` from little-endian row-major bytes.
DenseElementsAttr attrFromBytes(RankedTensorType type, const char *data) {
  Type element = type.getElementType();
  unsigned bits = element.getIntOrFloatBitWidth();
  unsigned size = bits <= 8 ? 1 : bits / 8;
  int64_t n = type.getNumElements();
  if (element.isF32()) {
    SmallVector<float> values(n);
    std::memcpy(values.data(), data, n * 4);
    return DenseElementsAttr::get(type, ArrayRef<float>(values));
  }
  SmallVector<APInt> values;
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t raw = 0;
    std::memcpy(&raw, data + i * size, size);
    values.push_back(APInt(bits, raw, /*isSigned=*/false, /*implicitTrunc=*/true));
  }
  return DenseElementsAttr::get(type, values);
}

struct NPUBindParamsPass : npu::impl::NPUBindParamsBase<NPUBindParamsPass> {
  using NPUBindParamsBase::NPUBindParamsBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(funcName);
    if (!func) {
      module.emitError() << "npu-bind-params: no function named '"
                         << funcName << "'";
      return signalPassFailure();
    }
    if (file.empty()) {
      func.emitError("npu-bind-params: set the parameter file with "
                     "file=PATH");
      return signalPassFailure();
    }
    auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false);
    if (!buffer) {
      func.emitError() << "npu-bind-params: cannot read '" << file
                       << "': " << buffer.getError().message();
      return signalPassFailure();
    }
    SmallVector<unsigned> indices(args.begin(), args.end());
    if (indices.empty())
      for (unsigned i = 1; i < func.getNumArguments(); ++i)
        indices.push_back(i);
    llvm::sort(indices);
    const char *data = (*buffer)->getBufferStart();
    size_t available = (*buffer)->getBufferSize(), offset = 0;
    OpBuilder builder(func.getBody());
    llvm::BitVector erase(func.getNumArguments());
    for (unsigned index : indices) {
      if (index >= func.getNumArguments()) {
        func.emitError() << "npu-bind-params: argument index " << index
                         << " is out of range (" << func.getNumArguments()
                         << " arguments)";
        return signalPassFailure();
      }
      BlockArgument arg = func.getArgument(index);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type || !type.hasStaticShape() ||
          !type.getElementType().isIntOrFloat() ||
          (isa<FloatType>(type.getElementType()) &&
           !type.getElementType().isF32())) {
        func.emitError() << "npu-bind-params: argument " << index << " of type "
                         << arg.getType()
                         << " is not a static integer or f32 tensor";
        return signalPassFailure();
      }
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      size_t bytes = (bits <= 8 ? 1 : bits / 8) * type.getNumElements();
      if (offset + bytes > available) {
        func.emitError() << "npu-bind-params: '" << file << "' holds "
                         << available << " bytes; argument " << index
                         << " needs bytes [" << offset << ", "
                         << offset + bytes << ")";
        return signalPassFailure();
      }
      auto attr = attrFromBytes(type, data + offset);
      offset += bytes;
      Value constant =
          arith::ConstantOp::create(builder, arg.getLoc(), type, attr);
      arg.replaceAllUsesWith(constant);
      erase.set(index);
    }
    if (offset != available) {
      func.emitError() << "npu-bind-params: '" << file << "' holds "
                       << available << " bytes but the bound arguments take "
                       << offset;
      return signalPassFailure();
    }
    if (failed(func.eraseArguments(erase)))
      return signalPassFailure();
  }
};

} // namespace
