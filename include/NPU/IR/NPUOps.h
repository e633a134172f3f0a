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

namespace mlir::npu {
/// The fused activation of a verified npu operator `op` with a table
/// activation (leaky_relu or lut) as one 256-entry table of the stored
/// byte: entry `y & 0xff` is clamp(y, act_min, act_max) followed by the
/// activation, for every y of the result's storage range. std::nullopt for
/// the clamp activations (none, relu, relu6, clip).
std::optional<SmallVector<int32_t>> getActivationTable(Operation *op);
} // namespace mlir::npu

#endif // NPU_IR_NPUOPS_H
