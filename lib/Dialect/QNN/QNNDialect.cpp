//===- QNNDialect.cpp - qnn dialect registration
//---------------------------===//

#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::qnn;

#include "QNN/IR/QNNDialect.cpp.inc"
#include "QNN/IR/QNNEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "QNN/IR/QNNAttrs.cpp.inc"

namespace {
/// Every qnn operation is free of side effects and regions, so calls to
/// functions of qnn operations may be inlined (a network written as a
/// function per layer then fuses across the layers' boundaries).
struct QNNInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const final {
    return true;
  }
};
} // namespace

void QNNDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "QNN/IR/QNNAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "QNN/IR/QNNOps.cpp.inc"
      >();
  addInterfaces<QNNInlinerInterface>();
}

Operation *QNNDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
