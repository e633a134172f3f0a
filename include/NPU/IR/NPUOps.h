//===- NPUOps.h - npu operators ---------------------------------*- C++ -*-===//

#ifndef NPU_IR_NPUOPS_H
#define NPU_IR_NPUOPS_H

#include "NPU/IR/NPUDialect.h"
#include "QNN/IR/QNNOps.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "NPU/IR/NPUEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "NPU/IR/NPUAttrs.h.inc"

#define GET_OP_CLASSES
#include "NPU/IR/NPUOps.h.inc"

#endif // NPU_IR_NPUOPS_H
