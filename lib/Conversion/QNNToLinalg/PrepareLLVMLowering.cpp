//===- PrepareLLVMLowering.cpp - qnn-prepare-llvm-lowering ----------------===//
//
// The rewrites that must precede convert-to-llvm, applied to the operations
// that need them: memref views expanded to reinterpret_casts (upstream's
// expand-strided-metadata patterns) and upstream's vector-to-vector lowering
// (the first phase of convert-vector-to-llvm), each seeded with the
// operations its patterns apply to instead of every operation of the
// module, and explicit alignments on vector loads and stores. The
// allocation scopes of OpenMP loop bodies are inlined where they allocate
// nothing (the canonicalization of memref.alloca_scope, on those ops, and
// InlineAllocationFreeScope).
// Upstream's passes each walked and tried to fold every operation of every kernel;
// for MobileNet v2 (32 thousand operations) the two took 0.2-0.3 s.
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/Iterators.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_PREPARELLVMLOWERING
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {
/// Runs `patterns` on `ops` and on the operations they create, and nothing
/// else.
LogicalResult applyToOps(ArrayRef<Operation *> ops,
                         RewritePatternSet &&patterns) {
  if (ops.empty())
    return success();
  GreedyRewriteConfig config;
  config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
  return applyOpPatternsGreedily(ops, std::move(patterns), config);
}

/// Inlines a memref.alloca_scope that allocates nothing on the stack where
/// upstream's canonicalization would keep it: that pattern counts every
/// operation without memory effects as a possible allocation, among them the
/// kernels' llvm.call_intrinsic (vpdpbusd, the packs), so an OpenMP loop body
/// with such a call outside any loop kept its scope, whose region scf-to-cf
/// then cannot split. An LLVM intrinsic call does not allocate, nor does inline
/// assembly (the kernels' empty statements that keep LLVM from seeing through a
/// value); any other operation without effects, or one that allocates in the
/// enclosing scope (memref.alloca, llvm.alloca), keeps the scope.
struct InlineAllocationFreeScope : OpRewritePattern<memref::AllocaScopeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::AllocaScopeOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getBodyRegion().hasOneBlock() || op->getNumResults() != 0)
      return failure();
    bool mayAllocate =
        op.getBodyRegion()
            .walk([&](Operation *inner) {
              if (isa<LLVM::CallIntrinsicOp, LLVM::InlineAsmOp>(inner) ||
                  inner->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
                return WalkResult::advance();
              auto effects = dyn_cast<MemoryEffectOpInterface>(inner);
              if (!effects)
                return WalkResult::interrupt();
              SmallVector<MemoryEffects::EffectInstance> list;
              effects.getEffects(list);
              for (auto &effect : list)
                if (isa<MemoryEffects::Allocate>(effect.getEffect()) &&
                    isa<SideEffects::AutomaticAllocationScopeResource>(
                        effect.getResource()))
                  return WalkResult::interrupt();
              return WalkResult::advance();
            })
            .wasInterrupted();
    if (mayAllocate)
      return failure();
    Block &body = op.getBodyRegion().front();
    rewriter.eraseOp(body.getTerminator());
    rewriter.inlineBlockBefore(&body, op);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Moves the static allocations at the start of a memref.alloca_scope to
/// the start of the enclosing allocation scope: for the scope that
/// convert-scf-to-openmp puts around an OpenMP loop body, the omp.parallel
/// region, which each thread runs once. A scope frees its allocations when
/// it ends, so each iteration's buffer starts undefined and is dead after
/// it; the iterations a thread runs one after the other may share one.
/// (Upstream's hoisting stops at loops.) The GEMM kernels' accumulator
/// buffers (ConvKernelBuilder.cpp, loopedEpilogue) are allocated so; the scope,
/// then free of allocations, is inlined by InlineAllocationFreeScope, as
/// scf-to-cf needs for the loops inside it.
struct HoistStaticAllocas : OpRewritePattern<memref::AllocaScopeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::AllocaScopeOp op,
                                PatternRewriter &rewriter) const override {
    Operation *home =
        op->getParentWithTrait<OpTrait::AutomaticAllocationScope>();
    if (!home || home->getNumRegions() != 1 || home->getRegion(0).empty() ||
        !op.getBodyRegion().hasOneBlock())
      return failure();
    SmallVector<memref::AllocaOp> allocas;
    for (Operation &inner : op.getBodyRegion().front()) {
      auto alloca = dyn_cast<memref::AllocaOp>(inner);
      if (!alloca || alloca->getNumOperands() != 0)
        break;
      allocas.push_back(alloca);
    }
    if (allocas.empty())
      return failure();
    Block &entry = home->getRegion(0).front();
    for (memref::AllocaOp alloca : allocas)
      rewriter.moveOpBefore(alloca, &entry, entry.begin());
    // The scope changed: the driver visits it again (to inline it).
    rewriter.modifyOpInPlace(op, [] {});
    return success();
  }
};

/// The memref operations whose LLVM lowering needs explicit strides.
bool needsStridedMetadata(Operation *op) {
  return isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
             memref::ExtractStridedMetadataOp, memref::ReinterpretCastOp,
             memref::ExtractAlignedPointerAsIndexOp, memref::CastOp>(op);
}

/// The preferred alignment of `type` in LLVM's default data layout (which
/// the LLVM conversion uses): its size rounded up to a power of two, for
/// integers and floats of at most 64 bits; 0 for the others.
uint64_t preferredAlignment(Type type) {
  if (!type.isIntOrFloat() || type.getIntOrFloatBitWidth() > 64)
    return 0;
  return llvm::PowerOf2Ceil(llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
}

template <typename OpT> void setAlignment(OpT op) {
  if (op.getAlignment())
    return;
  if (uint64_t align = preferredAlignment(op.getMemRefType().getElementType()))
    op.setAlignmentAttr(
        IntegerAttr::get(IntegerType::get(op.getContext(), 64), align));
}

struct PrepareLLVMLoweringPass
    : qnn::impl::PrepareLLVMLoweringBase<PrepareLLVMLoweringPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    SmallVector<Operation *> memrefOps, vectorOps, allocaScopes;
    auto gather = [&] {
      memrefOps.clear();
      vectorOps.clear();
      allocaScopes.clear();
      getOperation().walk([&](Operation *op) {
        if (needsStridedMetadata(op))
          memrefOps.push_back(op);
        else if (isa<vector::VectorDialect>(op->getDialect()))
          vectorOps.push_back(op);
        else if (isa<memref::AllocaScopeOp>(op))
          allocaScopes.push_back(op);
      });
    };
    gather();

    // convert-scf-to-openmp wraps each parallel body in a
    // memref.alloca_scope; upstream's canonicalization of that op inlines
    // the scopes without allocations (scf-to-cf cannot split the blocks of
    // a scope's single-block region) and hoists the allocations it can.
    // Applied to the scopes only: a whole-module canonicalize took 0.15 s
    // for MobileNet v2.
    RewritePatternSet scopePatterns(ctx);
    memref::AllocaScopeOp::getCanonicalizationPatterns(scopePatterns, ctx);
    scopePatterns.add<HoistStaticAllocas, InlineAllocationFreeScope>(ctx);
    if (failed(applyToOps(allocaScopes, std::move(scopePatterns)))) {
      getOperation().emitError("inlining allocation scopes did not converge");
      return signalPassFailure();
    }

    // The operations of the next rewrites, gathered again once scopes were
    // inlined: the greedy driver folds and erases the operations it moves
    // out of a scope (dead index arithmetic, say), so the first lists may
    // hold erased ones. (Serial code has no scopes: one walk.)
    if (!allocaScopes.empty())
      gather();

    RewritePatternSet memrefPatterns(ctx);
    memref::populateExpandStridedMetadataPatterns(memrefPatterns);
    if (failed(applyToOps(memrefOps, std::move(memrefPatterns)))) {
      getOperation().emitError("expanding memref views did not converge");
      return signalPassFailure();
    }

    // Upstream's first phase of convert-vector-to-llvm (its default
    // options), on the vector operations.
    RewritePatternSet vectorPatterns(ctx);
    vector::populateVectorToVectorCanonicalizationPatterns(vectorPatterns);
    vector::populateVectorBitCastLoweringPatterns(vectorPatterns);
    vector::populateVectorBroadcastLoweringPatterns(vectorPatterns);
    vector::populateVectorContractLoweringPatterns(
        vectorPatterns, vector::VectorContractLowering::Dot);
    vector::populateVectorMaskOpLoweringPatterns(vectorPatterns);
    vector::populateVectorShapeCastLoweringPatterns(vectorPatterns);
    vector::populateVectorInterleaveLoweringPatterns(vectorPatterns);
    vector::populateVectorTransposeLoweringPatterns(
        vectorPatterns, vector::VectorTransposeLowering::EltWise);
    vector::populateVectorTransferLoweringPatterns(vectorPatterns,
                                                   /*maxTransferRank=*/1);
    vector::populateVectorMaskMaterializationPatterns(
        vectorPatterns, /*force32BitVectorIndices=*/true);
    vector::populateVectorInsertExtractStridedSliceTransforms(vectorPatterns);
    vector::populateVectorStepLoweringPatterns(vectorPatterns);
    vector::populateVectorRankReducingFMAPattern(vectorPatterns);
    vector::populateVectorGatherLoweringPatterns(vectorPatterns);
    if (failed(applyToOps(vectorOps, std::move(vectorPatterns)))) {
      getOperation().emitError("lowering vector operations did not converge");
      return signalPassFailure();
    }

    // Dead operations (template values the kernels cloned and did not use,
    // constants the rewrites replaced), last uses first so that chains go
    // in one walk; upstream's greedy rewrites erased them on the way.
    getOperation().walk<WalkOrder::PostOrder, mlir::ReverseIterator>(
        [](Operation *op) {
          if (isOpTriviallyDead(op))
            op->erase();
        });
    getOperation().walk([](Operation *op) {
      TypeSwitch<Operation *>(op)
          .Case<vector::LoadOp, vector::StoreOp, vector::MaskedLoadOp,
                vector::MaskedStoreOp>([](auto memOp) { setAlignment(memOp); });
    });
  }
};
} // namespace
