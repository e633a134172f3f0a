//===- PlanBuffers.cpp - qnn-plan-buffers ---------------------------------===//
//
// Places the temporary buffers of a function in one workspace allocation,
// reusing memory between buffers whose live ranges do not overlap (see the
// pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_PLANBUFFERS
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {
constexpr int64_t kAlignment = 64;

/// One buffer to place: its allocation, its deallocation, its live range as
/// positions in the function's block, and its size.
struct Buffer {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  int64_t start = 0, end = 0, bytes = 0, offset = 0;
};

/// Finds the dealloc of `alloc` and the last position (in `positions`) of
/// an operation that uses the buffer or a view of it. Fails when the buffer
/// escapes: returned, aliased by a non-view operation that yields a memref,
/// or freed other than by one memref.dealloc in the function's block.
LogicalResult analyze(Buffer &buffer, Block &body,
                      const DenseMap<Operation *, int64_t> &positions) {
  SmallVector<Value> worklist = {buffer.alloc.getResult()};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<func::ReturnOp>(user))
        return failure();
      if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
        if (value != buffer.alloc.getResult() || buffer.dealloc ||
            dealloc->getBlock() != &body)
          return failure();
        buffer.dealloc = dealloc;
        continue;
      }
      if (auto view = dyn_cast<ViewLikeOpInterface>(user);
          view && view.getViewSource() == value) {
        for (Value result : user->getResults())
          if (isa<BaseMemRefType>(result.getType()))
            worklist.push_back(result);
      } else if (llvm::any_of(user->getResultTypes(), [](Type type) {
                   return isa<BaseMemRefType>(type);
                 })) {
        return failure();
      }
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top)
        return failure();
      buffer.end = std::max(buffer.end, positions.lookup(top));
    }
  }
  return success(buffer.dealloc != nullptr);
}

struct PlanBuffersPass : qnn::impl::PlanBuffersBase<PlanBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &body = func.getBody().front();
    DenseMap<Operation *, int64_t> positions;
    int64_t position = 0;
    for (Operation &op : body)
      positions[&op] = position++;

    SmallVector<Buffer> buffers;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace() || !alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty() ||
          !type.getElementType().isIntOrFloat() ||
          (alloc.getAlignment() && *alloc.getAlignment() > kAlignment))
        continue;
      Buffer buffer;
      buffer.alloc = alloc;
      buffer.start = buffer.end = positions.lookup(alloc);
      int64_t bits = type.getElementType().getIntOrFloatBitWidth();
      if (bits % 8 != 0)
        continue;
      buffer.bytes = type.getNumElements() * (bits / 8);
      if (buffer.bytes == 0 || failed(analyze(buffer, body, positions)))
        continue;
      buffers.push_back(buffer);
    }
    if (buffers.empty())
      return;

    // First fit in program order: each buffer takes the lowest aligned
    // offset not used by a placed buffer whose live range overlaps its own.
    int64_t total = 0;
    for (size_t i = 0; i < buffers.size(); ++i) {
      Buffer &b = buffers[i];
      SmallVector<std::pair<int64_t, int64_t>> taken;
      for (size_t j = 0; j < i; ++j)
        if (buffers[j].start <= b.end && b.start <= buffers[j].end)
          taken.push_back(
              {buffers[j].offset, buffers[j].offset + buffers[j].bytes});
      llvm::sort(taken);
      int64_t offset = 0;
      for (auto [lo, hi] : taken) {
        if (offset + b.bytes <= lo)
          break;
        offset = std::max<int64_t>(offset, llvm::alignTo(hi, kAlignment));
      }
      b.offset = offset;
      total = std::max(total, offset + b.bytes);
    }

    OpBuilder builder(&getContext());
    builder.setInsertionPointToStart(&body);
    Location loc = func.getLoc();
    auto workspaceType = MemRefType::get({total}, builder.getIntegerType(8));
    auto workspace = memref::AllocOp::create(
        builder, loc, workspaceType, builder.getI64IntegerAttr(kAlignment));
    for (Buffer &b : buffers) {
      builder.setInsertionPoint(b.alloc);
      Value offset =
          arith::ConstantIndexOp::create(builder, b.alloc.getLoc(), b.offset);
      auto view =
          memref::ViewOp::create(builder, b.alloc.getLoc(), b.alloc.getType(),
                                 workspace, offset, ValueRange{});
      b.alloc.getResult().replaceAllUsesWith(view.getResult());
      b.alloc.erase();
      b.dealloc.erase();
    }
    builder.setInsertionPoint(body.getTerminator());
    memref::DeallocOp::create(builder, loc, workspace);
  }
};
} // namespace
