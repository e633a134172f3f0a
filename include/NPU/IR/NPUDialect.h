//===- NPUDialect.h - npu dialect -------------------------------*- C++ -*-===//

#ifndef NPU_IR_NPUDIALECT_H
#define NPU_IR_NPUDIALECT_H

#include "QNN/IR/QNNDialect.h"
#include "mlir/IR/Dialect.h"

#include "NPU/IR/NPUDialect.h.inc"

#endif // NPU_IR_NPUDIALECT_H
