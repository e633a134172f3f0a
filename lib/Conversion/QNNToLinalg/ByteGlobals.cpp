//===- ByteGlobals.cpp - qnn-byte-globals ---------------------------------===//
//
// Stores constant memref globals (the packed weights, biases and
// requantize tables) as flat byte arrays viewed with their original types
// (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/SwapByteOrder.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_BYTEGLOBALS
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {
constexpr uint64_t kMinAlignment = 64;

/// `global`'s initial value as a flat i8 array of its little-endian bytes,
/// when it is a constant dense array of integers or floats of whole bytes,
/// statically shaped, with the identity layout in the default memory space,
/// and worth rewriting (wider than a byte or of rank above 1); null
/// otherwise.
DenseElementsAttr byteValue(memref::GlobalOp global) {
  if (!global.getConstant() || !llvm::sys::IsLittleEndianHost)
    return {};
  auto init = dyn_cast_if_present<DenseIntOrFPElementsAttr>(
      global.getInitialValueAttr());
  MemRefType type = global.getType();
  if (!init || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      type.getMemorySpace() || type.getRank() == 0 ||
      type.getNumElements() == 0)
    return {};
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 != 0)
    return {};
  int64_t width = element.getIntOrFloatBitWidth() / 8;
  if (width == 1 && type.getRank() == 1)
    return {};
  int64_t count = type.getNumElements();
  auto bytesType = RankedTensorType::get({count * width},
                                         IntegerType::get(global.getContext(), 8));
  ArrayRef<char> raw = init.getRawData();
  if (!init.isSplat())
    return static_cast<int64_t>(raw.size()) == count * width
               ? DenseElementsAttr::getFromRawBuffer(bytesType, raw)
               : DenseElementsAttr();
  if (static_cast<int64_t>(raw.size()) != width)
    return {};
  std::vector<char> bytes;
  bytes.reserve(count * width);
  for (int64_t i = 0; i < count; ++i)
    bytes.insert(bytes.end(), raw.begin(), raw.end());
  return DenseElementsAttr::getFromRawBuffer(bytesType, bytes);
}

struct ByteGlobalsPass : qnn::impl::ByteGlobalsBase<ByteGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    Type i8 = IntegerType::get(ctx, 8);
    // The rewritten globals, by name, with their original types.
    llvm::DenseMap<StringAttr, MemRefType> original;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      DenseElementsAttr bytes = byteValue(global);
      if (!bytes)
        continue;
      original[global.getSymNameAttr()] = global.getType();
      global.setType(MemRefType::get({bytes.getNumElements()}, i8));
      global.setInitialValueAttr(bytes);
      uint64_t alignment = std::max<uint64_t>(
          global.getAlignment().value_or(0), kMinAlignment);
      global.setAlignmentAttr(
          IntegerAttr::get(IntegerType::get(ctx, 64), alignment));
    }
    if (original.empty())
      return;
    SmallVector<memref::GetGlobalOp> uses;
    module.walk([&](memref::GetGlobalOp get) {
      if (original.count(get.getNameAttr().getAttr()))
        uses.push_back(get);
    });
    OpBuilder b(ctx);
    for (memref::GetGlobalOp get : uses) {
      MemRefType type = original.lookup(get.getNameAttr().getAttr());
      b.setInsertionPoint(get);
      Location loc = get.getLoc();
      auto bytesType = MemRefType::get(
          {type.getNumElements() * type.getElementTypeBitWidth() / 8}, i8);
      Value bytes =
          memref::GetGlobalOp::create(b, loc, bytesType, get.getNameAttr());
      Value zero = arith::ConstantIndexOp::create(b, loc, 0);
      Value view = memref::ViewOp::create(b, loc, type, bytes, zero,
                                          ValueRange{});
      get.getResult().replaceAllUsesWith(view);
      get.erase();
    }
  }
};
} // namespace
