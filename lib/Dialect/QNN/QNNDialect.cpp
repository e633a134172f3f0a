//===- QNNDialect.cpp - qnn dialect registration
//---------------------------===//

#include "QNN/IR/QNNDialect.h"
#include "QNN/IR/QNNOps.h"
#include "QNN/Utils/InlinerInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::qnn;

#include "QNN/IR/QNNDialect.cpp.inc"
#include "QNN/IR/QNNEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "QNN/IR/QNNAttrs.cpp.inc"

void QNNDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "QNN/IR/QNNAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "QNN/IR/QNNOps.cpp.inc"
      >();
  addInterfaces<AlwaysInlinableInterface>();
}

Operation *QNNDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
