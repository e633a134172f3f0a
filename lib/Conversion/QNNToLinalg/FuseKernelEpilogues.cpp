//===- FuseKernelEpilogues.cpp - qnn-fuse-kernel-epilogues ----------------===//
//
// Moves the elementwise epilogue of a GEMM-shaped convolution kernel (bias
// add, requantize, clamp, narrowing: one linalg.generic after
// linalg-fuse-elementwise-ops) into the kernel, so that the i32
// accumulators are requantized in registers and only 8-bit results are
// stored. The generic's scalar body is kept as a private function, the
// kernel's "epilogue"; qnn-materialize-conv-kernels applies it to the
// accumulator vectors (see ConvKernels.cpp).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"
#include "QNNToLinalgInternal.h"

#include "mlir/IR/IRMapping.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_FUSEKERNELEPILOGUES
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

namespace {
/// The pieces of one fusable kernel call and its epilogue.
struct Candidate {
  func::CallOp call;
  func::FuncOp kernel;
  KernelSpec spec;
  bufferization::ToTensorOp accumulators;
  /// Depthwise kernels (multiplier 1): [N, OH, OW, 1, C] -> [N, OH, OW, C].
  tensor::CollapseShapeOp collapse;
  linalg::GenericOp generic;
  /// Per-channel constants of the epilogue (1-D, op elements each), in the
  /// order of the generic's operands after the accumulators.
  SmallVector<DenseElementsAttr> channelConstants;
};

/// The generic reads `acc` with the identity map and otherwise only
/// constant per-channel vectors; its body is arith (and math.roundeven) only (values defined
/// outside it must be scalar constants); it yields one integer of at most
/// 32 bits.
bool matchGeneric(Candidate &c) {
  linalg::GenericOp g = c.generic;
  if (g.getNumDpsInits() != 1 || g.getNumResults() != 1 ||
      g.getNumParallelLoops() != g.getNumLoops() || g.getNumLoops() != 4)
    return false;
  auto resultType = cast<RankedTensorType>(g.getResult(0).getType());
  auto elem = dyn_cast<IntegerType>(resultType.getElementType());
  if (!elem || elem.getWidth() > 32)
    return false;
  if (!g.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return false;
  SmallVector<AffineMap> maps = g.getIndexingMapsArray();
  if (!maps.back().isIdentity())
    return false;
  int64_t channels = c.spec.op;
  bool seenAcc = false;
  for (OpOperand *operand : g.getDpsInputOperands()) {
    AffineMap map = g.getMatchingIndexingMap(operand);
    Value v = operand->get();
    Value acc =
        c.collapse ? Value(c.collapse.getResult()) : c.accumulators.getResult();
    if (v == acc) {
      if (seenAcc || !map.isIdentity() || operand->getOperandNumber() != 0)
        return false;
      seenAcc = true;
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(v.getType());
    DenseElementsAttr value;
    if (!type || !matchPattern(v, m_Constant(&value)))
      return false;
    // Indexed by the channel only: the last result is d3, every other
    // result addresses a dimension of size 1.
    if (map.getNumResults() != type.getRank() || type.getRank() == 0 ||
        map.getResults().back() != getAffineDimExpr(3, g.getContext()) ||
        type.getShape().back() != channels)
      return false;
    for (int64_t i = 0; i + 1 < type.getRank(); ++i)
      if (type.getDimSize(i) != 1)
        return false;
    c.channelConstants.push_back(value.reshape(
        RankedTensorType::get({channels}, type.getElementType())));
  }
  if (!seenAcc)
    return false;
  // The body: arith operations on the block arguments and outside scalar
  // constants.
  Block &body = g.getRegion().front();
  for (Operation &op : body.without_terminator()) {
    // Lookup tables (qnn.hardswish/sigmoid/tanh): an element of a constant
    // 1-D table at an index computed in the body.
    if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
      auto table = extract.getTensor().getDefiningOp<arith::ConstantOp>();
      if (!table || extract.getTensor().getParentRegion() == &g.getRegion() ||
          extract.getTensor().getType().getRank() != 1)
        return false;
      continue;
    }
    // Arith, and math.roundeven (the ONNX rule's rounding).
    if ((op.getDialect()->getNamespace() != "arith" &&
         !isa<math::RoundEvenOp>(op)) ||
        op.getNumRegions() || op.getNumResults() != 1)
      return false;
    for (Value operand : op.getOperands()) {
      if (operand.getParentRegion() == &g.getRegion())
        continue;
      auto constant = operand.getDefiningOp<arith::ConstantOp>();
      if (!constant || isa<ShapedType>(constant.getType()))
        return false;
    }
  }
  // The output block argument must be unused.
  return body.getArgument(body.getNumArguments() - 1).use_empty();
}

/// Collects the kernel calls whose accumulators feed only a fusable
/// epilogue.
SmallVector<Candidate> findCandidates(ModuleOp module, bool depthwise) {
  SmallVector<Candidate> found;
  module.walk([&](func::CallOp call) {
    auto kernel = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!kernel || !kernel.isDeclaration() || call.getNumOperands() != 4)
      return;
    auto attr = kernel->getAttrOfType<DenseI64ArrayAttr>(kKernelAttrName);
    if (!attr)
      return;
    FailureOr<KernelSpec> spec = KernelSpec::fromAttr(attr);
    if (failed(spec) || (spec->flavor == KernelFlavor::Depthwise &&
                         (!depthwise || spec->mult != 1)))
      return;
    Value out = call.getOperand(3);
    auto alloc = out.getDefiningOp<memref::AllocOp>();
    if (!alloc || !out.hasNUses(2))
      return;
    bufferization::ToTensorOp accumulators;
    for (Operation *user : out.getUsers())
      if (auto t = dyn_cast<bufferization::ToTensorOp>(user))
        accumulators = t;
    if (!accumulators || !accumulators->hasOneUse() ||
        accumulators->getBlock() != call->getBlock() ||
        !call->isBeforeInBlock(accumulators))
      return;
    Operation *user = *accumulators->user_begin();
    tensor::CollapseShapeOp collapse;
    if (spec->flavor == KernelFlavor::Depthwise) {
      collapse = dyn_cast<tensor::CollapseShapeOp>(user);
      if (!collapse || !collapse->hasOneUse() ||
          collapse.getReassociationIndices() !=
              SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}})
        return;
      user = *collapse->user_begin();
    }
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic)
      return;
    Candidate c{call, kernel, *spec, accumulators, collapse, generic, {}};
    if (matchGeneric(c))
      found.push_back(std::move(c));
  });
  return found;
}

/// The generic's body as `func.func private @name(acc: i32, channel
/// constants..., ) -> result`, with outside constants cloned in.
func::FuncOp buildEpilogueFunction(OpBuilder &b, ModuleOp module,
                                   linalg::GenericOp g, StringRef name) {
  Block &body = g.getRegion().front();
  SmallVector<Type> inputs;
  for (BlockArgument arg : body.getArguments().drop_back())
    inputs.push_back(arg.getType());
  Type result = body.getTerminator()->getOperand(0).getType();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(b, g.getLoc(), name,
                                   b.getFunctionType(inputs, {result}));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [from, to] :
       llvm::zip(body.getArguments().drop_back(), entry->getArguments()))
    mapping.map(from, to);
  for (Operation &op : body.without_terminator()) {
    for (Value operand : op.getOperands())
      if (operand.getParentRegion() != &g.getRegion() &&
          !mapping.contains(operand))
        mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    b.clone(op, mapping);
  }
  func::ReturnOp::create(b, g.getLoc(),
                         mapping.lookup(body.getTerminator()->getOperand(0)));
  return func;
}

struct FuseKernelEpiloguesPass
    : qnn::impl::FuseKernelEpiloguesBase<FuseKernelEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    int64_t counter = 0;
    // The fused kernels built so far: layers with the same kernel and an
    // equivalent epilogue (the same constants) share one function.
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> built;
    for (Candidate &c : findCandidates(module, fuseDepthwise)) {
      std::string base =
          c.kernel.getSymName().str() + "_epilogue" + std::to_string(counter++);
      while (module.lookupSymbol(base))
        base += "_";
      func::FuncOp epilogue =
          buildEpilogueFunction(b, module, c.generic, base + "_fn");

      // The fused kernel: x, w, corr, channel constants..., 8-bit out.
      Location loc = c.call.getLoc();
      auto resultType =
          cast<RankedTensorType>(c.generic.getResult(0).getType());
      // The kernel's own output layout: [N, OH, OW, 1, C] for depthwise.
      SmallVector<int64_t> outShape(resultType.getShape());
      if (c.collapse)
        outShape.insert(outShape.begin() + 3, 1);
      auto outType = MemRefType::get(outShape, resultType.getElementType());
      FunctionType oldType = c.kernel.getFunctionType();
      SmallVector<Type> argTypes(oldType.getInputs().take_front(3));
      for (DenseElementsAttr v : c.channelConstants)
        argTypes.push_back(MemRefType::get(v.getType().getShape(),
                                           v.getType().getElementType()));
      argTypes.push_back(outType);
      FunctionType fusedType = b.getFunctionType(argTypes, {});
      func::FuncOp fused;
      for (auto [other, otherEpilogue] : built)
        if (other.getFunctionType() == fusedType &&
            other->getAttr(kKernelAttrName) ==
                c.kernel->getAttr(kKernelAttrName) &&
            otherEpilogue.getFunctionType() == epilogue.getFunctionType() &&
            OperationEquivalence::isRegionEquivalentTo(
                &otherEpilogue.getBody(), &epilogue.getBody(),
                OperationEquivalence::IgnoreLocations)) {
          fused = other;
          break;
        }
      if (fused) {
        epilogue.erase();
      } else {
        b.setInsertionPointAfter(c.kernel);
        fused = func::FuncOp::create(b, c.kernel.getLoc(), base, fusedType);
        fused.setPrivate();
        fused->setAttr(kKernelAttrName, c.kernel->getAttr(kKernelAttrName));
        fused->setAttr(kEpilogueAttrName,
                       FlatSymbolRefAttr::get(epilogue.getSymNameAttr()));
        built.push_back({fused, epilogue});
      }

      b.setInsertionPoint(c.call);
      SmallVector<Value> operands(c.call.getOperands().take_front(3));
      for (auto [i, v] : llvm::enumerate(c.channelConstants)) {
        Value t = arith::ConstantOp::create(b, loc, v);
        operands.push_back(bufferization::ToBufferOp::create(
            b, loc, argTypes[3 + i], t, /*read_only=*/true));
      }
      Value out =
          memref::AllocOp::create(b, loc, outType, b.getI64IntegerAttr(64));
      operands.push_back(out);
      func::CallOp::create(b, loc, fused, operands);
      b.setInsertionPoint(c.generic);
      Value result = bufferization::ToTensorOp::create(
          b, loc, RankedTensorType::get(outShape, resultType.getElementType()),
          out, /*restrict=*/true, /*writable=*/true);
      if (c.collapse)
        result = tensor::CollapseShapeOp::create(
            b, loc, resultType, result, c.collapse.getReassociationIndices());
      c.generic.getResult(0).replaceAllUsesWith(result);
      Value oldOut = c.call.getOperand(3);
      c.generic.erase();
      if (c.collapse)
        c.collapse.erase();
      c.accumulators.erase();
      c.call.erase();
      oldOut.getDefiningOp()->erase();
      if (c.kernel.symbolKnownUseEmpty(module))
        c.kernel.erase();
    }
  }
};
} // namespace
