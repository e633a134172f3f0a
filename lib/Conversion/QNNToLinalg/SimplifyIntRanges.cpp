//===- SimplifyIntRanges.cpp - qnn-simplify-int-ranges --------------------===//
//
// Removes integer clamps that never clamp and 8-bit round trips
// (extsi(trunci v)) that never wrap, from ranges inferred backwards through
// the InferIntRangeInterface of the operations that define a value. The
// inference is local and demand-driven: it starts at the candidate
// operations only, memoizes every value it visits, and treats block
// arguments (a linalg.generic's elements, a function's arguments) as
// unbounded, so it needs neither a dataflow solver nor a fixed point.
//
// What it finds in quantized networks: the 32-bit saturation of a rescale
// whose input is a widened 8-bit value (TFLite ADD's operand rescales), and
// the 8-bit narrowing of a requantize followed, once elementwise fusion has
// met them, by the sign extension of the next layer's 16-bit input.
//
//===----------------------------------------------------------------------===//

#include "QNNToLinalgInternal.h"

#include "QNN/Conversion/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

namespace mlir::qnn {
#define GEN_PASS_DEF_SIMPLIFYINTRANGES
#include "QNN/Conversion/Passes.h.inc"
} // namespace mlir::qnn

using namespace mlir;

namespace {

/// Ranges of integer (or vector of integer) values, inferred on demand.
class RangeInference {
public:
  /// The range of every value v may take; the whole range of its type when
  /// nothing bounds it (or the chain is deeper than kMaxDepth).
  ConstantIntRanges get(Value v) { return get(v, 0); }

  /// Bounds the integer value v to [lo, hi] (a function argument whose
  /// values are known).
  void seed(Value v, int64_t lo, int64_t hi) {
    unsigned width = ConstantIntRanges::getStorageBitwidth(v.getType());
    if (width == 0 || width > 64)
      return;
    if (width < 64 && (lo < -(int64_t(1) << (width - 1)) ||
                       hi >= (int64_t(1) << (width - 1))))
      return;
    cache.insert_or_assign(
        v, ConstantIntRanges::fromSigned(APInt(width, lo, true),
                                         APInt(width, hi, true)));
  }

private:
  static constexpr unsigned kMaxDepth = 48;

  ConstantIntRanges get(Value v, unsigned depth) {
    if (auto it = cache.find(v); it != cache.end())
      return it->second;
    unsigned width = ConstantIntRanges::getStorageBitwidth(v.getType());
    ConstantIntRanges result = ConstantIntRanges::maxRange(width);
    auto iface = v.getDefiningOp<InferIntRangeInterface>();
    if (iface && depth < kMaxDepth && width != 0 && isIntegerLike(iface)) {
      SmallVector<ConstantIntRanges> operands;
      for (Value operand : iface->getOperands())
        operands.push_back(get(operand, depth + 1));
      iface.inferResultRanges(operands,
                              [&](Value r, const ConstantIntRanges &range) {
                                if (r == v)
                                  result = range;
                              });
    }
    cache.try_emplace(v, result);
    return result;
  }

  /// Whether every operand and result of the op is an integer, an index,
  /// or a vector of them (the types the ranges describe).
  static bool isIntegerLike(Operation *op) {
    auto integer = [](Type t) {
      return ConstantIntRanges::getStorageBitwidth(t) != 0;
    };
    return llvm::all_of(op->getOperandTypes(), integer) &&
           llvm::all_of(op->getResultTypes(), integer);
  }

  DenseMap<Value, ConstantIntRanges> cache;
};

/// The operand a min/max always returns, or null: a clamp that never
/// clamps. (A min/max that always returns its constant bound is left to
/// the kernels' matchers, which know the forms of per-channel terms such
/// as min(shift, 1).)
Value redundantMinMax(Operation *op, RangeInference &ranges) {
  if (!isa<arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp>(op))
    return {};
  Value a = op->getOperand(0), b = op->getOperand(1);
  if (matchPattern(a, m_Constant()))
    std::swap(a, b);
  if (matchPattern(a, m_Constant()))
    return {};
  ConstantIntRanges ra = ranges.get(a), rb = ranges.get(b);
  if (ra.smin().getBitWidth() == 0)
    return {};
  // max(a, b) = a when a >= b always; min(a, b) = a when a <= b always.
  bool always = false;
  if (isa<arith::MaxSIOp>(op))
    always = ra.smin().sge(rb.smax());
  else if (isa<arith::MinSIOp>(op))
    always = ra.smax().sle(rb.smin());
  else if (isa<arith::MaxUIOp>(op))
    always = ra.umin().uge(rb.umax());
  else
    always = ra.umax().ule(rb.umin());
  return always ? a : Value();
}

/// Whether every value of range r survives truncation to `bits` and the
/// extension back, signed or unsigned.
bool fitsIn(const ConstantIntRanges &r, unsigned bits, bool isSigned) {
  unsigned width = r.smin().getBitWidth();
  if (bits >= width)
    return true;
  if (isSigned)
    return r.smin().sge(APInt::getSignedMinValue(bits).sext(width)) &&
           r.smax().sle(APInt::getSignedMaxValue(bits).sext(width));
  return r.umax().ule(APInt::getMaxValue(bits).zext(width));
}

/// Rewrites ext(trunci(v)) into one conversion of v (or v) when v fits the
/// truncated type; the ops that become dead go to `dead`. Returns whether
/// it did.
bool simplifyExtOfTrunc(Operation *op, RangeInference &ranges, OpBuilder &b,
                        SmallVectorImpl<Operation *> &dead) {
  bool isSigned = isa<arith::ExtSIOp>(op);
  if (!isSigned && !isa<arith::ExtUIOp>(op))
    return false;
  auto trunc = op->getOperand(0).getDefiningOp<arith::TruncIOp>();
  if (!trunc)
    return false;
  Value v = trunc.getIn();
  Type narrow = getElementTypeOrSelf(trunc.getType());
  if (!fitsIn(ranges.get(v), narrow.getIntOrFloatBitWidth(), isSigned))
    return false;
  Type target = op->getResult(0).getType();
  unsigned from = getElementTypeOrSelf(v.getType()).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(target).getIntOrFloatBitWidth();
  Value replacement = v;
  b.setInsertionPoint(op);
  if (to < from)
    replacement = arith::TruncIOp::create(b, op->getLoc(), target, v);
  else if (to > from && isSigned)
    replacement = arith::ExtSIOp::create(b, op->getLoc(), target, v);
  else if (to > from)
    replacement = arith::ExtUIOp::create(b, op->getLoc(), target, v);
  op->getResult(0).replaceAllUsesWith(replacement);
  dead.push_back(op);
  if (trunc->hasOneUse())
    dead.push_back(trunc);
  return true;
}

/// Bounds the arguments of a kernel epilogue function (after the
/// accumulator) by the hull of their recorded per-layer ranges
/// (qnn.argument_ranges, qnn-fuse-kernel-epilogues): the constants that
/// layers sharing the kernel disagree on.
void seedArguments(Block *block, RangeInference &ranges) {
  auto func = dyn_cast<func::FuncOp>(block->getParentOp());
  if (!func || !block->isEntryBlock())
    return;
  auto layers = qnn::lowering::readArgumentRanges(func);
  for (size_t a = 0; !layers.empty() && a < layers.front().size(); ++a) {
    qnn::lowering::ArgumentRange hull = layers.front()[a];
    for (auto &layer : ArrayRef(layers).drop_front()) {
      if (!hull || !layer[a])
        hull.reset();
      else
        hull = {{std::min(hull->first, layer[a]->first),
                 std::max(hull->second, layer[a]->second)}};
    }
    if (hull)
      ranges.seed(block->getArgument(a + 1), hull->first, hull->second);
  }
}

struct SimplifyIntRangesPass
    : qnn::impl::SimplifyIntRangesBase<SimplifyIntRangesPass> {
  void runOnOperation() override {
    // A cache per block keeps it small (values defined outside the block
    // are inferred through their defining ops all the same). Ops die at the
    // end of their block, so that no new op reuses the address of a value
    // the cache still holds.
    OpBuilder b(&getContext());
    getOperation()->walk([&](Block *block) {
      if (!llvm::any_of(*block, [](Operation &op) {
            return isa<arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp,
                       arith::MinUIOp, arith::ExtSIOp, arith::ExtUIOp>(op);
          }))
        return;
      RangeInference ranges;
      seedArguments(block, ranges);
      SmallVector<Operation *> dead;
      for (Operation &op : *block) {
        if (Value same = redundantMinMax(&op, ranges)) {
          op.getResult(0).replaceAllUsesWith(same);
          dead.push_back(&op);
          continue;
        }
        simplifyExtOfTrunc(&op, ranges, b, dead);
      }
      for (Operation *op : dead)
        op->dropAllReferences();
      for (Operation *op : dead)
        op->erase();
    });
  }
};

} // namespace
