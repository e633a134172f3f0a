//===- NPUDialect.cpp - npu dialect registration --------------------------===//

#include "NPU/IR/NPUDialect.h"
#include "NPU/IR/NPUOps.h"
#include "QNN/Utils/InlinerInterface.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::npu;

#include "NPU/IR/NPUDialect.cpp.inc"
#include "NPU/IR/NPUEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "NPU/IR/NPUAttrs.cpp.inc"

void NPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "NPU/IR/NPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "NPU/IR/NPUOps.cpp.inc"
      >();
  addInterfaces<qnn::AlwaysInlinableInterface>();
}
