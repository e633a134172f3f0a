//===- Partition.cpp - outline NPU-supported regions ----------------------===//

#include "NPU/IR/NPUOps.h"
#include "NPU/Transforms/Passes.h"

namespace mlir::npu {
#define GEN_PASS_DEF_NPUPARTITION
#include "NPU/Transforms/Passes.h.inc"
} // namespace mlir::npu

using namespace mlir;

namespace {
struct NPUPartitionPass : npu::impl::NPUPartitionBase<NPUPartitionPass> {
  using NPUPartitionBase::NPUPartitionBase;
  void runOnOperation() override {}
};
} // namespace
