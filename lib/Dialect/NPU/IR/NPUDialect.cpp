//===- NPUDialect.cpp - npu dialect registration --------------------------===//

#include "NPU/IR/NPUDialect.h"
#include "NPU/IR/NPUOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::npu;

#include "NPU/IR/NPUDialect.cpp.inc"
#include "NPU/IR/NPUEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "NPU/IR/NPUAttrs.cpp.inc"

namespace {
/// Every npu operation is free of side effects and regions, so calls to
/// functions of npu operations may be inlined (a network written as a
/// function per layer then fuses across the layers' boundaries).
struct NPUInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool,
                       IRMapping &) const final {
    return true;
  }
};
} // namespace

void NPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "NPU/IR/NPUAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "NPU/IR/NPUOps.cpp.inc"
      >();
  addInterfaces<NPUInlinerInterface>();
}
