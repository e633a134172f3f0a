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
#include "llvm/ADT/SetVector.h"

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
std::vector<Candidate> findCandidates(ModuleOp module, bool depthwise) {
  std::vector<Candidate> found;
  module.walk([&](func::CallOp call) {
    auto kernel = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!kernel || !kernel.isDeclaration() || call.getNumOperands() != 4)
      return;
    auto attr = kernel->getAttrOfType<DenseI64ArrayAttr>(kKernelAttrName);
    if (!attr)
      return;
    FailureOr<KernelSpec> spec = KernelSpec::fromAttr(attr);
    if (failed(spec) || (spec->isDepthwise() &&
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
    if (spec->isDepthwise()) {
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
/// constants..., ) -> result`, with outside constants cloned in (one copy
/// per using operation).
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
  // Each use of an outside constant gets its own copy, so that the
  // function's structure does not depend on which constant values happen
  // to coincide (kernel sharing compares epilogues up to constant values).
  for (Operation &op : body.without_terminator()) {
    for (Value operand : op.getOperands())
      if (operand.getParentRegion() != &g.getRegion())
        mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    b.clone(op, mapping);
  }
  func::ReturnOp::create(b, g.getLoc(),
                         mapping.lookup(body.getTerminator()->getOperand(0)));
  return func;
}

/// Whether a scalar constant of the epilogue may become a per-channel
/// argument (a splat vector per layer) so that layers differing only in it
/// share one kernel: integers of 8 to 64 bits and f32.
bool isLiftableConstant(Operation &op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return false;
  Type type = constant.getType();
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() >= 8 && intType.getWidth() <= 64;
  return type.isF32();
}

/// The values of the liftable constants of an epilogue function, in body
/// order.
SmallVector<Attribute> liftableConstants(func::FuncOp f) {
  SmallVector<Attribute> values;
  for (Operation &op : f.getBody().front())
    if (isLiftableConstant(op))
      values.push_back(cast<arith::ConstantOp>(op).getValue());
  return values;
}

/// Whether epilogue functions `a` and `b` compute the same operations on the
/// same operands, ignoring the values of liftable constants.
bool equivalentModuloConstants(func::FuncOp a, func::FuncOp b) {
  if (a.getFunctionType() != b.getFunctionType())
    return false;
  Block &ab = a.getBody().front(), &bb = b.getBody().front();
  if (ab.getOperations().size() != bb.getOperations().size())
    return false;
  IRMapping mapping;
  for (auto [x, y] : llvm::zip(ab.getArguments(), bb.getArguments()))
    mapping.map(x, y);
  for (auto [x, y] : llvm::zip(ab, bb)) {
    if (x.getName() != y.getName() ||
        x.getNumOperands() != y.getNumOperands() ||
        x.getResultTypes() != y.getResultTypes() || x.getNumRegions() ||
        y.getNumRegions())
      return false;
    for (auto [xo, yo] : llvm::zip(x.getOperands(), y.getOperands()))
      if (mapping.lookupOrNull(xo) != yo)
        return false;
    if (!isLiftableConstant(x) &&
        x.getAttrDictionary() != y.getAttrDictionary())
      return false;
    for (auto [xr, yr] : llvm::zip(x.getResults(), y.getResults()))
      mapping.map(xr, yr);
  }
  return true;
}

/// Stores i64 vector arguments of the epilogue whose values fit in i32 (in
/// every member of the group) as i32 and sign-extends them in the
/// epilogue: half the bytes to load, and a product of two sign-extended
/// i32 values is one vpmuldq per 8 lanes on x86 where a 64-bit product of
/// unknown operands needs vpmullq (three uops). `argValues[m][a]` is
/// member m's value of epilogue argument a + 1; `argTypes` (the kernel's
/// argument types, three before the vectors) is updated with them.
void narrowWideArguments(OpBuilder &b, func::FuncOp epilogue,
                         SmallVector<SmallVector<DenseElementsAttr>> &argValues,
                         SmallVector<Type> &argTypes) {
  Block &body = epilogue.getBody().front();
  Type i32 = b.getI32Type();
  for (size_t a = 0; a < argValues.front().size(); ++a) {
    bool narrow = llvm::all_of(argValues, [&](auto &values) {
      DenseElementsAttr v = values[a];
      return v.getElementType().isInteger(64) &&
             llvm::all_of(v.getValues<APInt>(), [](const APInt &x) {
               return x.isSignedIntN(32);
             });
    });
    if (!narrow)
      continue;
    for (auto &values : argValues)
      values[a] = values[a].mapValues(
          i32, [](const APInt &x) { return x.trunc(32); });
    BlockArgument arg = body.getArgument(a + 1);
    arg.setType(i32);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&body);
    Value wide = arith::ExtSIOp::create(b, arg.getLoc(), b.getI64Type(), arg);
    arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
    auto memrefType = cast<MemRefType>(argTypes[3 + a]);
    argTypes[3 + a] = MemRefType::get(memrefType.getShape(), i32);
  }
  epilogue.setFunctionType(
      b.getFunctionType(body.getArgumentTypes(), epilogue.getResultTypes()));
}

/// One fusable kernel call with its epilogue function and the kernel type
/// it needs before any constant is lifted.
struct Prepared {
  Candidate c;
  func::FuncOp epilogue;
  FunctionType fusedType;
  MemRefType outType;
};

/// Layers that share one fused kernel: the same kernel, kernel type and
/// epilogue up to liftable constants. `constants[m][i]` is the i-th
/// liftable constant of member m's epilogue.
struct Group {
  SmallVector<Prepared *> members;
  SmallVector<SmallVector<Attribute>> constants;
};

struct FuseKernelEpiloguesPass
    : qnn::impl::FuseKernelEpiloguesBase<FuseKernelEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    int64_t counter = 0;
    // 1. Every candidate with its own epilogue function.
    std::vector<Prepared> prepared;
    for (Candidate &c : findCandidates(module, fuseDepthwise)) {
      std::string base =
          c.kernel.getSymName().str() + "_epilogue" + std::to_string(counter++);
      while (module.lookupSymbol(base))
        base += "_";
      func::FuncOp epilogue =
          buildEpilogueFunction(b, module, c.generic, base + "_fn");
      auto resultType =
          cast<RankedTensorType>(c.generic.getResult(0).getType());
      // The kernel's own output layout: [N, OH, OW, 1, C] for depthwise.
      SmallVector<int64_t> outShape(resultType.getShape());
      if (c.collapse)
        outShape.insert(outShape.begin() + 3, 1);
      auto outType = MemRefType::get(outShape, resultType.getElementType());
      SmallVector<Type> argTypes(
          c.kernel.getFunctionType().getInputs().take_front(3));
      for (DenseElementsAttr v : c.channelConstants)
        argTypes.push_back(MemRefType::get(v.getType().getShape(),
                                           v.getType().getElementType()));
      argTypes.push_back(outType);
      prepared.push_back(
          {c, epilogue, b.getFunctionType(argTypes, {}), outType});
    }

    // 2. Groups of layers that can share a kernel.
    SmallVector<Group> groups;
    for (Prepared &p : prepared) {
      Group *group = llvm::find_if(groups, [&](const Group &g) {
        const Prepared &rep = *g.members.front();
        return rep.fusedType == p.fusedType &&
               rep.c.kernel->getAttr(kKernelAttrName) ==
                   p.c.kernel->getAttr(kKernelAttrName) &&
               equivalentModuloConstants(rep.epilogue, p.epilogue);
      });
      if (group == groups.end())
        group = &groups.emplace_back();
      group->members.push_back(&p);
      group->constants.push_back(liftableConstants(p.epilogue));
    }

    // 3. One kernel per group. A constant that differs between members
    // becomes an argument of the epilogue and of the kernel (a per-channel
    // splat vector, loaded like the other per-channel constants); equal
    // ones stay immediates.
    for (Group &g : groups) {
      Prepared &rep = *g.members.front();
      func::FuncOp epilogue = rep.epilogue;
      int64_t channels = rep.c.spec.op;
      SmallVector<int64_t> lifted;
      for (size_t i = 0; i < g.constants.front().size(); ++i)
        if (llvm::any_of(g.constants, [&](const SmallVector<Attribute> &m) {
              return m[i] != g.constants.front()[i];
            }))
          lifted.push_back(static_cast<int64_t>(i));
      for (Prepared *p : ArrayRef(g.members).drop_front())
        p->epilogue.erase();
      Block &body = epilogue.getBody().front();
      SmallVector<Type> liftedTypes;
      {
        SmallVector<Operation *> constantOps;
        for (Operation &op : body)
          if (isLiftableConstant(op))
            constantOps.push_back(&op);
        for (int64_t i : lifted) {
          Operation *op = constantOps[i];
          Type type = op->getResult(0).getType();
          liftedTypes.push_back(type);
          BlockArgument arg = body.addArgument(type, op->getLoc());
          op->getResult(0).replaceAllUsesWith(arg);
          op->erase();
        }
        epilogue.setFunctionType(b.getFunctionType(
            body.getArgumentTypes(), epilogue.getResultTypes()));
      }
      SmallVector<Type> argTypes(rep.fusedType.getInputs().drop_back());
      for (Type type : liftedTypes)
        argTypes.push_back(MemRefType::get({channels}, type));
      argTypes.push_back(rep.outType);
      // Per member, the values of the kernel's constant vector arguments
      // (the per-channel constants, then the lifted ones).
      SmallVector<SmallVector<DenseElementsAttr>> argValues;
      for (auto [member, constants] : llvm::zip(g.members, g.constants)) {
        SmallVector<DenseElementsAttr> values(member->c.channelConstants);
        for (auto [i, type] : llvm::zip(lifted, liftedTypes))
          values.push_back(DenseElementsAttr::get(
              RankedTensorType::get({channels}, type), constants[i]));
        argValues.push_back(std::move(values));
      }
      narrowWideArguments(b, epilogue, argValues, argTypes);
      FunctionType fusedType = b.getFunctionType(argTypes, {});
      b.setInsertionPointAfter(rep.c.kernel);
      std::string name = epilogue.getSymName().drop_back(3).str();
      func::FuncOp fused =
          func::FuncOp::create(b, rep.c.kernel.getLoc(), name, fusedType);
      fused.setPrivate();
      fused->setAttr(kKernelAttrName, rep.c.kernel->getAttr(kKernelAttrName));
      fused->setAttr(kEpilogueAttrName,
                     FlatSymbolRefAttr::get(epilogue.getSymNameAttr()));

      for (auto [member, values] : llvm::zip(g.members, argValues)) {
        Candidate &c = member->c;
        Location loc = c.call.getLoc();
        b.setInsertionPoint(c.call);
        SmallVector<Value> operands(c.call.getOperands().take_front(3));
        for (DenseElementsAttr v : values) {
          Value t = arith::ConstantOp::create(b, loc, v);
          operands.push_back(bufferization::ToBufferOp::create(
              b, loc, argTypes[operands.size()], t, /*read_only=*/true));
        }
        Value out = memref::AllocOp::create(b, loc, member->outType,
                                            b.getI64IntegerAttr(64));
        operands.push_back(out);
        func::CallOp::create(b, loc, fused, operands);
        b.setInsertionPoint(c.generic);
        auto resultType =
            cast<RankedTensorType>(c.generic.getResult(0).getType());
        Value result = bufferization::ToTensorOp::create(
            b, loc,
            RankedTensorType::get(member->outType.getShape(),
                                  resultType.getElementType()),
            out, /*restrict=*/true, /*writable=*/true);
        if (c.collapse)
          result = tensor::CollapseShapeOp::create(
              b, loc, resultType, result,
              c.collapse.getReassociationIndices());
        c.generic.getResult(0).replaceAllUsesWith(result);
        Value oldOut = c.call.getOperand(3);
        c.generic.erase();
        if (c.collapse)
          c.collapse.erase();
        c.accumulators.erase();
        c.call.erase();
        oldOut.getDefiningOp()->erase();
      }
    }
    // The unfused kernel declarations nothing calls any more.
    llvm::SetVector<Operation *> kernels;
    for (Prepared &p : prepared)
      kernels.insert(p.c.kernel);
    for (Operation *kernel : kernels)
      if (cast<func::FuncOp>(kernel).symbolKnownUseEmpty(module))
        kernel->erase();
  }
};
} // namespace
