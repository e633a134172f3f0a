//===- FuseKernelEpilogues.cpp - qnn-fuse-kernel-epilogues ----------------===//
//
// Moves the elementwise epilogue of a GEMM-shaped convolution kernel (bias
// add, requantize, clamp, narrowing: one linalg.generic after
// linalg-fuse-elementwise-ops) into the kernel, so that the i32
// accumulators are requantized in registers and only 8-bit results are
// stored. The generic's scalar body is kept as a private function, the
// kernel's "epilogue"; qnn-materialize-conv-kernels applies it to the
// accumulator vectors (see ConvKernelEpilogue.cpp).
//
//===----------------------------------------------------------------------===//

#include "QNN/Conversion/Passes.h"
#include "QNNToLinalgInternal.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_FUSEKERNELEPILOGUES
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

SmallVector<SmallVector<ArgumentRange>>
lowering::readArgumentRanges(func::FuncOp epilogue) {
  SmallVector<SmallVector<ArgumentRange>> layers;
  auto attr =
      epilogue->getAttrOfType<DenseI64ArrayAttr>(kArgumentRangesAttrName);
  size_t args = epilogue.getNumArguments() - 1;
  if (!attr || args == 0 || attr.size() % (2 * args) != 0)
    return layers;
  ArrayRef<int64_t> values = attr.asArrayRef();
  for (size_t m = 0; m < values.size() / (2 * args); ++m) {
    auto &ranges = layers.emplace_back();
    for (size_t a = 0; a < args; ++a) {
      size_t at = 2 * (m * args + a);
      int64_t lo = values[at], hi = values[at + 1];
      ranges.push_back(lo <= hi ? ArgumentRange({lo, hi}) : std::nullopt);
    }
  }
  return layers;
}

namespace {
/// The pieces of one fusable kernel call and its epilogue.
struct Candidate {
  func::CallOp call;
  func::FuncOp kernel;
  KernelSpec spec;
  bufferization::ToTensorOp accumulators;
  /// Depthwise kernels (multiplier 1): [N, OH, OW, 1, C] -> [N, OH, OW, C],
  /// before the generic (a generic on the 5-D values needs none).
  tensor::CollapseShapeOp collapse;
  linalg::GenericOp generic;
  /// Per-channel constants of the epilogue (1-D, op elements each), in the
  /// order of the generic's operands after the accumulators.
  SmallVector<DenseElementsAttr> channelConstants;
  /// A kernel that already has an epilogue (the npu lowering's): that
  /// function and the call's channel constants. `generic`, if any, then
  /// follows the epilogue (the next kernel's sign flip, say) and composes
  /// with it; without one the call only joins the sharing of step 2.
  func::FuncOp firstEpilogue = {};
  SmallVector<DenseElementsAttr> kernelConstants = {};
};

/// The generic reads `acc` with the identity map and otherwise only
/// constant per-channel vectors; its body is arith (and math.roundeven) only (values defined
/// outside it must be scalar constants); it yields one integer of at most
/// 32 bits.
bool matchGeneric(Candidate &c, Value acc) {
  linalg::GenericOp g = c.generic;
  int64_t rank = g.getNumLoops();
  if (g.getNumDpsInits() != 1 || g.getNumResults() != 1 ||
      g.getNumParallelLoops() != rank || (rank != 4 && rank != 5))
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
  // Kernels with padded channels (a slice between) are left alone: the
  // strided copy of 8-bit results out of padded rows costs more than a
  // separate elementwise epilogue (measured on vww's 8-channel layers).
  int64_t channels = c.spec.op;
  if (resultType.getShape().back() != channels)
    return false;
  bool seenAcc = false;
  for (OpOperand *operand : g.getDpsInputOperands()) {
    AffineMap map = g.getMatchingIndexingMap(operand);
    Value v = operand->get();
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
        map.getResults().back() != getAffineDimExpr(rank - 1, g.getContext()) ||
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
    // Arith, math.roundeven (the ONNX rule's rounding), math.fma and
    // math.floor (the floor-affine rescale).
    if ((op.getDialect()->getNamespace() != "arith" &&
         !isa<mlir::math::RoundEvenOp, mlir::math::FmaOp, mlir::math::FloorOp>(
             op)) ||
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
/// epilogue, and every call of a kernel that has an epilogue already
/// (with a fusable generic after it, if there is one).
std::vector<Candidate> findCandidates(ModuleOp module, bool depthwise) {
  std::vector<Candidate> found;
  SymbolTable symbols(module);
  module.walk([&](func::CallOp call) {
    auto kernel = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!kernel || !kernel.isDeclaration() || call.getNumOperands() < 4)
      return;
    auto attr = kernel->getAttrOfType<DenseI64ArrayAttr>(kKernelAttrName);
    if (!attr)
      return;
    FailureOr<KernelSpec> spec = KernelSpec::fromAttr(attr);
    if (failed(spec))
      return;
    Candidate c{call, kernel, *spec, {}, {}, {}, {}};
    if (auto ref =
            kernel->getAttrOfType<FlatSymbolRefAttr>(kEpilogueAttrName)) {
      c.firstEpilogue = symbols.lookup<func::FuncOp>(ref.getValue());
      if (!c.firstEpilogue)
        return;
      for (Value v : call.getOperands().drop_front(3).drop_back()) {
        auto buffer = v.getDefiningOp<bufferization::ToBufferOp>();
        DenseElementsAttr value;
        if (!buffer || !matchPattern(buffer.getTensor(), m_Constant(&value)))
          return;
        c.kernelConstants.push_back(value);
      }
    } else if (call.getNumOperands() != 4) {
      return;
    }
    // A fused kernel stays a member for sharing even when nothing follows.
    auto keep = [&] {
      if (c.firstEpilogue) {
        c.accumulators = {};
        c.collapse = {};
        c.generic = {};
        c.channelConstants.clear();
        found.push_back(std::move(c));
      }
    };
    if (spec->isDepthwise() && (!depthwise || spec->mult != 1))
      return keep();
    Value out = call.getOperands().back();
    auto alloc = out.getDefiningOp<memref::AllocOp>();
    if (!alloc || !out.hasNUses(2))
      return keep();
    for (Operation *user : out.getUsers())
      if (auto t = dyn_cast<bufferization::ToTensorOp>(user))
        c.accumulators = t;
    if (!c.accumulators || !c.accumulators->hasOneUse() ||
        c.accumulators->getBlock() != call->getBlock() ||
        !call->isBeforeInBlock(c.accumulators))
      return keep();
    // to_tensor -> [collapse] -> generic, or to_tensor -> generic on the
    // 5-D depthwise values (linalg-fuse-elementwise-ops moves a collapse
    // after an elementwise op).
    Value acc = c.accumulators.getResult();
    Operation *user = *c.accumulators->user_begin();
    if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(user);
        collapse && spec->isDepthwise()) {
      if (!collapse->hasOneUse() ||
          collapse.getReassociationIndices() !=
              SmallVector<ReassociationIndices>{{0}, {1}, {2}, {3, 4}})
        return keep();
      c.collapse = collapse;
      acc = collapse.getResult();
      user = *collapse->user_begin();
    }
    c.generic = dyn_cast<linalg::GenericOp>(user);
    if (c.generic && matchGeneric(c, acc))
      found.push_back(std::move(c));
    else
      keep();
  });
  return found;
}

/// The generic's body as `func.func private @name(acc: i32, channel
/// constants..., ) -> result`, with outside constants cloned in (one copy
/// per using operation). With `first` (a kernel's epilogue), the function
/// is `first` followed by the generic: first's arguments, then the
/// generic's channel constants; first's result is the generic's input.
func::FuncOp buildEpilogueFunction(OpBuilder &b, ModuleOp module,
                                   linalg::GenericOp g, StringRef name,
                                   func::FuncOp first = {}) {
  Block &body = g.getRegion().front();
  SmallVector<Type> inputs;
  if (first)
    llvm::append_range(inputs, first.getArgumentTypes());
  for (BlockArgument arg :
       body.getArguments().drop_back().drop_front(first ? 1 : 0))
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
  ValueRange args = entry->getArguments();
  if (first) {
    Block &firstBody = first.getBody().front();
    IRMapping firstMapping;
    for (auto [from, to] : llvm::zip(firstBody.getArguments(), args))
      firstMapping.map(from, to);
    for (Operation &op : firstBody.without_terminator())
      b.clone(op, firstMapping);
    mapping.map(body.getArgument(0),
                firstMapping.lookup(firstBody.getTerminator()->getOperand(0)));
    args = args.drop_front(first.getNumArguments());
    for (auto [from, to] :
         llvm::zip(body.getArguments().drop_back().drop_front(), args))
      mapping.map(from, to);
  } else {
    for (auto [from, to] : llvm::zip(body.getArguments().drop_back(), args))
      mapping.map(from, to);
  }
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
/// share one kernel: integers of 8 to 64 bits, f32 and f64 (the
/// floor-affine parameters, float32 values extended).
bool isLiftableConstant(Operation &op) {
  auto constant = dyn_cast<arith::ConstantOp>(op);
  if (!constant)
    return false;
  Type type = constant.getType();
  if (auto intType = dyn_cast<IntegerType>(type))
    return intType.getWidth() >= 8 && intType.getWidth() <= 64;
  return type.isF32() || type.isF64();
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
/// same operands, ignoring the values of liftable constants. The constants
/// are matched by their uses, not by their places in the bodies (the
/// canonicalizer hoists constants and merges equal ones, so their order
/// depends on their values): each liftable constant of `a` must pair with
/// one of `b` of the same type at every use, and the other way round. On
/// success, `paired` (if given) receives, for each liftable constant of
/// `a` in body order, the value of its partner in `b`.
bool equivalentModuloConstants(func::FuncOp a, func::FuncOp b,
                               SmallVectorImpl<Attribute> *paired = nullptr) {
  if (a.getFunctionType() != b.getFunctionType())
    return false;
  Block &ab = a.getBody().front(), &bb = b.getBody().front();
  auto others = [](Block &block) {
    SmallVector<Operation *> ops;
    for (Operation &op : block)
      if (!isLiftableConstant(op))
        ops.push_back(&op);
    return ops;
  };
  SmallVector<Operation *> xs = others(ab), ys = others(bb);
  if (xs.size() != ys.size())
    return false;
  IRMapping mapping;
  for (auto [x, y] : llvm::zip(ab.getArguments(), bb.getArguments()))
    mapping.map(x, y);
  // The liftable constant of `block` that defines `v`, or null.
  auto liftable = [](Value v, Block &block) -> Operation * {
    Operation *def = v.getDefiningOp();
    return def && def->getBlock() == &block && isLiftableConstant(*def)
               ? def
               : nullptr;
  };
  DenseMap<Operation *, Operation *> aToB, bToA;
  for (auto [x, y] : llvm::zip(xs, ys)) {
    if (x->getName() != y->getName() ||
        x->getNumOperands() != y->getNumOperands() ||
        x->getResultTypes() != y->getResultTypes() || x->getNumRegions() ||
        y->getNumRegions() || x->getAttrDictionary() != y->getAttrDictionary())
      return false;
    for (auto [xo, yo] : llvm::zip(x->getOperands(), y->getOperands())) {
      Operation *xc = liftable(xo, ab), *yc = liftable(yo, bb);
      if (!xc && !yc) {
        if (mapping.lookupOrNull(xo) != yo)
          return false;
        continue;
      }
      if (!xc || !yc || xo.getType() != yo.getType())
        return false;
      auto [toB, newB] = aToB.try_emplace(xc, yc);
      auto [toA, newA] = bToA.try_emplace(yc, xc);
      if ((!newB && toB->second != yc) || (!newA && toA->second != xc))
        return false;
    }
    for (auto [xr, yr] : llvm::zip(x->getResults(), y->getResults()))
      mapping.map(xr, yr);
  }
  // Every constant paired (one that nothing uses has no partner): the
  // bodies' operations other than xs and ys.
  if (aToB.size() != ab.getOperations().size() - xs.size() ||
      bToA.size() != bb.getOperations().size() - ys.size())
    return false;
  if (paired)
    for (Operation &op : ab)
      if (isLiftableConstant(op))
        paired->push_back(cast<arith::ConstantOp>(aToB.lookup(&op)).getValue());
  return true;
}

/// Gives an epilogue that ends in a clamp and the narrowing to 8 bits
/// without adding an output zero point (a zero point of 0, whose addition
/// the canonicalizer folded away) that addition again, of a constant 0 of
/// its own: the same operations as the epilogues of layers with other
/// zero points, so that it can share their kernel (the zero point becomes
/// a lifted argument). Returns the addition (null if none was added); an
/// addition whose constant is not lifted is removed again
/// (removeNeutralAddition).
Operation *addNeutralZeroPoint(OpBuilder &b, func::FuncOp epilogue) {
  Block &body = epilogue.getBody().front();
  Value v = body.getTerminator()->getOperand(0);
  // A sign flip and an 8-bit clamp may follow the narrowing (as
  // ConvKernelEpilogue.cpp's narrowingTail reads them).
  if (auto flip = v.getDefiningOp<arith::XOrIOp>())
    v = flip.getLhs();
  for (int i = 0; i < 2; ++i) {
    Operation *def = v.getDefiningOp();
    if (!def || !v.getType().isInteger(8) ||
        !isa<arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(
            def))
      break;
    v = def->getOperand(0);
  }
  auto trunc = v.getDefiningOp<arith::TruncIOp>();
  if (!trunc || !trunc.getIn().getType().isInteger(32) ||
      !trunc.getType().isInteger(8))
    return nullptr;
  Value clamped = trunc.getIn();
  if (!clamped.getDefiningOp<arith::MinSIOp>() &&
      !clamped.getDefiningOp<arith::MaxSIOp>())
    return nullptr;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(trunc);
  Value zero = arith::ConstantOp::create(b, trunc.getLoc(),
                                         b.getI32IntegerAttr(0));
  auto add = arith::AddIOp::create(b, trunc.getLoc(), clamped, zero);
  trunc.getInMutable().assign(add);
  return add;
}

/// Removes an addition of addNeutralZeroPoint whose constant was not lifted
/// (every layer sharing the kernel has zero point 0).
void removeNeutralAddition(Operation *op) {
  auto add = cast<arith::AddIOp>(op);
  Operation *zero = add.getRhs().getDefiningOp();
  if (!zero)
    return;
  add.getResult().replaceAllUsesWith(add.getLhs());
  add.erase();
  if (zero->use_empty())
    zero->erase();
}

/// Stores the vector arguments of the epilogue whose values (in every
/// member of the group) a narrower type holds exactly as that type, and
/// widens them in the epilogue: i64 values that fit in i32 (half the bytes
/// to load, and a product of two sign-extended i32 values is one vpmuldq
/// per 8 lanes on x86 where a 64-bit product of unknown operands needs
/// vpmullq, three uops), and f64 values that are float32 values (the
/// floor-affine slopes and offsets, lifted from the constants that
/// canonicalization folded out of their extension: the kernels read float32
/// vectors). `argValues[m][a]` is member m's value of epilogue argument
/// a + 1; `argTypes` (the kernel's argument types, three before the
/// vectors) is updated with them.
void narrowArguments(OpBuilder &b, func::FuncOp epilogue,
                     SmallVector<SmallVector<DenseElementsAttr>> &argValues,
                     SmallVector<Type> &argTypes) {
  Block &body = epilogue.getBody().front();
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto fitsI32 = [](DenseElementsAttr v) {
    return v.getElementType().isInteger(64) &&
           llvm::all_of(v.getValues<APInt>(),
                        [](const APInt &x) { return x.isSignedIntN(32); });
  };
  auto isFloat32 = [](DenseElementsAttr v) {
    return v.getElementType().isF64() &&
           llvm::all_of(v.getValues<double>(), [](double x) {
             return static_cast<double>(static_cast<float>(x)) == x;
           });
  };
  for (size_t a = 0; a < argValues.front().size(); ++a) {
    auto all = [&](auto predicate) {
      return llvm::all_of(argValues,
                          [&](auto &values) { return predicate(values[a]); });
    };
    bool integer = all(fitsI32);
    if (!integer && !all(isFloat32))
      continue;
    Type narrow = integer ? i32 : f32;
    for (auto &values : argValues)
      values[a] =
          integer ? values[a].mapValues(
                        i32, [](const APInt &x) { return x.trunc(32); })
                  : values[a].mapValues(f32, [](const APFloat &x) {
                      return APFloat(static_cast<float>(x.convertToDouble()))
                          .bitcastToAPInt();
                    });
    BlockArgument arg = body.getArgument(a + 1);
    Type wideType = arg.getType();
    arg.setType(narrow);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&body);
    Value wide =
        integer
            ? arith::ExtSIOp::create(b, arg.getLoc(), wideType, arg).getResult()
            : arith::ExtFOp::create(b, arg.getLoc(), wideType, arg).getResult();
    arg.replaceAllUsesExcept(wide, wide.getDefiningOp());
    auto memrefType = cast<MemRefType>(argTypes[3 + a]);
    argTypes[3 + a] = MemRefType::get(memrefType.getShape(), narrow);
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
    llvm::DenseSet<Operation *> erased;
    for (Candidate &c : findCandidates(module, fuseDepthwise)) {
      // The channel constants: the kernel's own, then the generic's.
      c.channelConstants.insert(c.channelConstants.begin(),
                                c.kernelConstants.begin(),
                                c.kernelConstants.end());
      func::FuncOp epilogue = c.firstEpilogue;
      auto outType = cast<MemRefType>(c.call.getOperands().back().getType());
      if (c.generic) {
        std::string base = c.kernel.getSymName().str() + "_epilogue" +
                           std::to_string(counter++);
        while (module.lookupSymbol(base) || module.lookupSymbol(base + "_fn"))
          base += "_";
        epilogue = buildEpilogueFunction(b, module, c.generic, base + "_fn",
                                         c.firstEpilogue);
        // The kernel's own output layout, the generic's element type.
        outType = MemRefType::get(
            outType.getShape(),
            cast<RankedTensorType>(c.generic.getResult(0).getType())
                .getElementType());
      }
      SmallVector<Type> argTypes(
          c.kernel.getFunctionType().getInputs().take_front(3));
      for (DenseElementsAttr v : c.channelConstants)
        argTypes.push_back(MemRefType::get(v.getType().getShape(),
                                           v.getType().getElementType()));
      argTypes.push_back(outType);
      prepared.push_back(
          {c, epilogue, b.getFunctionType(argTypes, {}), outType});
    }

    // 2. Groups of layers that can share a kernel, the zero points of 0
    // added back as constants (removed again where not lifted).
    DenseMap<Operation *, Operation *> neutralAdds;
    for (Prepared &p : prepared)
      if (!neutralAdds.count(p.epilogue))
        neutralAdds[p.epilogue] = addNeutralZeroPoint(b, p.epilogue);
    SmallVector<Group> groups;
    for (Prepared &p : prepared) {
      SmallVector<Attribute> paired;
      Group *group = llvm::find_if(groups, [&](const Group &g) {
        const Prepared &rep = *g.members.front();
        paired.clear();
        return rep.fusedType == p.fusedType &&
               rep.c.kernel->getAttr(kKernelAttrName) ==
                   p.c.kernel->getAttr(kKernelAttrName) &&
               equivalentModuloConstants(rep.epilogue, p.epilogue, &paired);
      });
      if (group == groups.end()) {
        group = &groups.emplace_back();
        paired = liftableConstants(p.epilogue);
      }
      group->members.push_back(&p);
      group->constants.push_back(std::move(paired));
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
      for (Prepared *p : ArrayRef(g.members).drop_front()) {
        erased.insert(p->epilogue);
        p->epilogue.erase();
      }
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
      if (Operation *add = neutralAdds.lookup(epilogue);
          add && !isa<BlockArgument>(add->getOperand(1)))
        removeNeutralAddition(add);
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
      narrowArguments(b, epilogue, argValues, argTypes);
      // Each member's range of each argument: the kernel's packed narrowing
      // reads the zero points and clamp bounds that were lifted from it.
      SmallVector<int64_t> ranges;
      for (auto &values : argValues)
        for (DenseElementsAttr v : values) {
          int64_t lo = 1, hi = 0;
          if (isa<IntegerType>(v.getElementType())) {
            lo = std::numeric_limits<int64_t>::max();
            hi = std::numeric_limits<int64_t>::min();
            for (const APInt &x : v.getValues<APInt>()) {
              lo = std::min(lo, x.getSExtValue());
              hi = std::max(hi, x.getSExtValue());
            }
          }
          ranges.append({lo, hi});
        }
      epilogue->setAttr(kArgumentRangesAttrName,
                        b.getDenseI64ArrayAttr(ranges));
      FunctionType fusedType = b.getFunctionType(argTypes, {});
      b.setInsertionPointAfter(rep.c.kernel);
      std::string name = epilogue.getSymName().drop_back(3).str();
      // The representative's own kernel (an npu lowering's, under that
      // name) is replaced below.
      if (auto old = module.lookupSymbol<func::FuncOp>(name))
        old.setSymName(name + "_replaced");
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
        if (!c.generic) {
          // Only shared: same output buffer.
          operands.push_back(c.call.getOperands().back());
          func::CallOp::create(b, loc, fused, operands);
          c.call.erase();
          continue;
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
        Value oldOut = c.call.getOperands().back();
        c.generic.erase();
        if (c.collapse)
          c.collapse.erase();

        c.accumulators.erase();
        c.call.erase();
        oldOut.getDefiningOp()->erase();
      }
    }
    // The kernel declarations nothing calls any more (one walk for the
    // uses, not one per symbol), then the epilogues only they used (named
    // by the remaining kernels' attributes).
    llvm::DenseSet<StringAttr> used = referencedSymbols(module);
    llvm::DenseSet<StringAttr> referenced;
    llvm::SetVector<Operation *> kernels;
    llvm::SetVector<Operation *> firstEpilogues;
    for (Prepared &p : prepared) {
      kernels.insert(p.c.kernel);
      if (p.c.firstEpilogue && !erased.contains(p.c.firstEpilogue))
        firstEpilogues.insert(p.c.firstEpilogue);
    }
    for (Operation *kernel : kernels)
      if (!used.contains(cast<func::FuncOp>(kernel).getSymNameAttr()))
        kernel->erase();
    for (auto f : module.getOps<func::FuncOp>())
      if (auto ref = f->getAttrOfType<FlatSymbolRefAttr>(kEpilogueAttrName))
        referenced.insert(ref.getAttr());
    for (Operation *fn : firstEpilogues)
      if (!referenced.contains(cast<func::FuncOp>(fn).getSymNameAttr()))
        fn->erase();
  }
};
} // namespace
