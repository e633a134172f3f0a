//===- ConvKernelBuilder.cpp - the kernels' shared pieces ----------------===//
//
// KernelBuilder's pieces that every kernel uses: the accumulators'
// initial values, the pixel tiles and how threads share them, window sums
// of the input, loads and the multiply-add step of each flavor.
//
//===----------------------------------------------------------------------===//

#include "ConvKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/SaveAndRestore.h"

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

/// vpdpbusd with generic vector ops: each i32 lane of `acc` adds the four
/// products of unsigned bytes of `a` and signed bytes of `w`.
Value lowering::emulateVpdpbusd(OpBuilder &b, Location l, Value acc, Value a,
                                Value w) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto wide = VectorType::get({4 * lanes}, b.getI32Type());
  Value p = arith::MulIOp::create(b, l, arith::ExtUIOp::create(b, l, wide, a),
                                  arith::ExtSIOp::create(b, l, wide, w));
  Value sum = acc;
  for (int64_t t = 0; t < 4; ++t) {
    SmallVector<int64_t> mask;
    for (int64_t j = 0; j < lanes; ++j)
      mask.push_back(4 * j + t);
    sum = arith::AddIOp::create(b, l, sum,
                                vector::ShuffleOp::create(b, l, p, p, mask));
  }
  return sum;
}

arith::AddIOp KernelBuilder::leadingBiasAdd() {
  if (!epilogue)
    return {};
  Block &body = epilogue.getBody().front();
  Value acc = body.getArgument(0);
  if (!acc.hasOneUse())
    return {};
  auto add = dyn_cast<arith::AddIOp>(*acc.getUsers().begin());
  if (!add)
    return {};
  Value other = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if (other == acc)
    return {};
  auto arg = dyn_cast<BlockArgument>(other);
  if (arg ? arg.getOwner() != &body : !matchPattern(other, m_Constant()))
    return {};
  return add;
}

Value KernelBuilder::leadingBias() {
  arith::AddIOp add = leadingBiasAdd();
  if (!add)
    return {};
  Value acc = epilogue.getBody().front().getArgument(0);
  return add.getLhs() == acc ? add.getRhs() : add.getLhs();
}

int64_t KernelBuilder::epilogueChannelVectors() {
  if (!epilogue)
    return 0;
  Operation *bias = leadingBiasAdd();
  // The offset form reads its 2m and K tables instead of the multiplier.
  Value multiplier = offset ? offset->b : Value();
  return llvm::count_if(epilogue.getBody().front().getArguments().drop_front(),
                        [&](BlockArgument arg) {
                          return arg != multiplier &&
                                 llvm::any_of(arg.getUsers(),
                                              [&](Operation *user) {
                                                return user != bias;
                                              });
                        }) +
         (offset ? 2 : 0);
}

bool KernelBuilder::perLaneShifts() {
  if (!epilogue)
    return false;
  for (Operation &op : epilogue.getBody().front()) {
    if (auto r = matchRoundedProduct(op); r && r->shift && !commonShift(*r))
      return true;
    if (auto r = matchDoubleRoundedProduct(op);
        r && r->shift && !(offset && &op == offset->root))
      return true;
  }
  return false;
}

bool KernelBuilder::pairsPixels() const {
  return pairsChannels(s.flavor, s.oc) && !s.isDepthwise() && s.op == 16 &&
         epilogue;
}

Value KernelBuilder::laneMask(int64_t width, int64_t first, int64_t count) {
  SmallVector<bool> bits(width, false);
  std::fill_n(bits.begin() + first, count, true);
  return constant(DenseElementsAttr::get(
      VectorType::get({width}, b.getI1Type()), ArrayRef<bool>(bits)));
}

Value KernelBuilder::collapsedOnce(Value &slot, Value source,
                                   SmallVector<ReassociationIndices> groups) {
  if (!slot) {
    OpBuilder eb(b.getContext());
    eb.setInsertionPointAfterValue(source);
    slot = memref::CollapseShapeOp::create(eb, loc, source, groups);
  }
  return slot;
}

Value KernelBuilder::vpdpbusd(OpBuilder &ob, Value acc, Value a, Value w) {
  if (emulate)
    return emulateVpdpbusd(ob, loc, acc, a, w);
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  StringRef name = lanes == 4   ? "llvm.x86.avx512.vpdpbusd.128"
                   : lanes == 8 ? "llvm.x86.avx512.vpdpbusd.256"
                                : "llvm.x86.avx512.vpdpbusd.512";
  return intrinsic(ob, name, acc.getType(), ValueRange{acc, a, w});
}

Value KernelBuilder::loadBlock(OpBuilder &ob, VectorType type, Value memref,
                               ValueRange indices) {
  if (!pairsPixels())
    return vector::LoadOp::create(ob, loc, type, memref, indices);
  int64_t half = type.getNumElements() / 2;
  Value v = vector::LoadOp::create(
      ob, loc, VectorType::get({half}, type.getElementType()), memref, indices);
  SmallVector<int64_t> twice;
  for (int64_t i = 0; i < 2 * half; ++i)
    twice.push_back(i % half);
  return vector::ShuffleOp::create(ob, loc, v, v, twice);
}

Value KernelBuilder::initialAccumulator(OpBuilder &ob, Value base, Value ch) {
  // The offset form's accumulators start from bias + D.
  if (offset)
    return arith::AddIOp::create(
        ob, loc, base,
        loadBlock(ob, cast<VectorType>(base.getType()), offset->bias, ch));
  Value other = leadingBias();
  if (!other)
    return base;
  auto type = cast<VectorType>(base.getType());
  Value bias;
  if (auto arg = dyn_cast<BlockArgument>(other)) {
    bias = loadBlock(ob, type, channelArgs[arg.getArgNumber() - 1], ch);
  } else {
    APInt value;
    if (!matchPattern(other, m_ConstantInt(&value)))
      return base;
    bias = arith::ConstantOp::create(
        ob, loc,
        DenseElementsAttr::get(
            type, ob.getIntegerAttr(type.getElementType(), value)));
  }
  return arith::AddIOp::create(ob, loc, base, bias);
}

bool KernelBuilder::loopedEpilogue(int64_t rows) const {
  return epilogue && rows > 1 && s.flavor == KernelFlavor::Int16 &&
         s.cp * s.kh * s.kw >= 64;
}

Value KernelBuilder::scratch(MemRefType type) {
  Block *home = parallelBody ? parallelBody : entry;
  Value &buffer = memo.scratch[{home, type}];
  if (!buffer) {
    // (Not OpBuilder::atBlockBegin: an scf.parallel being built has no
    // operation yet to give its region a context.)
    OpBuilder sb(type.getContext());
    sb.setInsertionPointToStart(home);
    buffer = memref::AllocaOp::create(sb, loc, type);
  }
  return buffer;
}

void KernelBuilder::parallelOverImages(
    OpBuilder &ob, int64_t count,
    function_ref<void(OpBuilder &, Value, Value)> body) {
  SmallVector<Value> lbs, ubs, steps;
  if (s.n != 1) {
    lbs.push_back(idx(ob, 0));
    ubs.push_back(idx(ob, s.n));
    steps.push_back(idx(ob, 1));
  }
  lbs.push_back(idx(ob, 0));
  ubs.push_back(idx(ob, count));
  steps.push_back(idx(ob, 1));
  scf::ParallelOp::create(
      ob, loc, lbs, ubs, steps, [&](OpBuilder &pb, Location, ValueRange ivs) {
        llvm::SaveAndRestore<Block *> home(parallelBody,
                                           pb.getInsertionBlock());
        body(pb, s.n == 1 ? idx(pb, 0) : ivs.front(), ivs.back());
      });
}

Value KernelBuilder::depthwiseInitialAccumulator(OpBuilder &ob, Value jIv,
                                                 Value c0) {
  Value ch = arith::AddIOp::create(ob, loc, mul(ob, jIv, s.cp), c0);
  auto type = VectorType::get({s.lanes()}, ob.getI32Type());
  return initialAccumulator(ob, vector::LoadOp::create(ob, loc, type, corr, ch),
                            c0);
}

void KernelBuilder::forLoop(OpBuilder &ob, Value lo, Value hi, int64_t step,
                            function_ref<void(OpBuilder &, Value)> body) {
  scf::ForOp::create(ob, loc, lo, hi, idx(ob, step), ValueRange{},
                     [&](OpBuilder &lb, Location, Value iv, ValueRange) {
                       body(lb, iv);
                       scf::YieldOp::create(lb, loc);
                     });
}

void KernelBuilder::forLoop(OpBuilder &ob, int64_t lo, int64_t hi, int64_t step,
                            function_ref<void(OpBuilder &, Value)> body) {
  if (lo < hi)
    forLoop(ob, idx(ob, lo), idx(ob, hi), step, body);
}

SmallVector<Value> KernelBuilder::reduceLoop(
    OpBuilder &ob, int64_t n, ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body,
    bool unroll) {
  if (n == 1 || unroll) {
    SmallVector<Value> values(init);
    for (int64_t i = 0; i < n; ++i)
      values = body(ob, idx(ob, i), values);
    return values;
  }
  auto loop = scf::ForOp::create(
      ob, loc, idx(ob, 0), idx(ob, n), idx(ob, 1), init,
      [&](OpBuilder &lb, Location, Value iv, ValueRange args) {
        scf::YieldOp::create(lb, loc, body(lb, iv, args));
      });
  return SmallVector<Value>(loop.getResults());
}

std::pair<Value, Value> KernelBuilder::pixelCoords(OpBuilder &ob, Value m) {
  if (s.oh == 1)
    return {idx(ob, 0), m};
  Value owDim = idx(ob, s.ow);
  return {arith::DivUIOp::create(ob, loc, m, owDim),
          arith::RemUIOp::create(ob, loc, m, owDim)};
}

Value KernelBuilder::clampedTileStart(OpBuilder &ob, Value t, int64_t rows,
                                      int64_t extent) {
  return arith::MinUIOp::create(ob, loc, mul(ob, t, rows),
                                idx(ob, extent - rows));
}

bool KernelBuilder::tilesThreaded(int64_t rowsPerTile, int64_t groups) const {
  int64_t tiles = llvm::divideCeil(s.oh * s.ow, rowsPerTile);
  return threadedWork() && s.n * tiles * groups > 1;
}

bool KernelBuilder::threadedWork() const {
  int64_t weights = s.op * s.kh * s.kw * s.cp;
  int64_t work = std::max(s.n * s.oh * s.ow * weights,
                          weights * kStreamedWeightWorkFactor);
  return parallel && work >= parallelMinWork;
}

void KernelBuilder::pixelTileLoops(
    int64_t rowsPerTile, int64_t groups, bool groupMajor,
    function_ref<void(OpBuilder &, Value, Value, ArrayRef<Value>,
                      ArrayRef<Value>, Value)>
        tile) {
  int64_t pixels = s.oh * s.ow, full = pixels / rowsPerTile;
  int64_t rest = pixels % rowsPerTile;
  auto emitTile = [&](OpBuilder &ob, Value nIv, Value first, int64_t rows,
                      Value group) {
    SmallVector<Value> ohs, ows;
    for (int64_t r = 0; r < rows; ++r) {
      auto [oh, ow] = pixelCoords(ob, add(ob, first, r));
      ohs.push_back(oh);
      ows.push_back(ow);
    }
    tile(ob, nIv, first, ohs, ows, group);
  };
  // The last pixels as one shorter tile. (One pixel at a time, their
  // accumulators were a few dependent chains: the 4 last pixels of a
  // 14x14 layer took 7% of its time.)
  auto emitRest = [&](OpBuilder &ob, Value nIv, Value group) {
    if (rest)
      emitTile(ob, nIv, idx(ob, full * rowsPerTile), rest, group);
  };
  // Full tiles [from, to), the last of them clamped to end at the last
  // pixel (clampedTileStart).
  auto clampedTiles = [&](OpBuilder &ob, Value nIv, Value from, Value to,
                          Value group) {
    forLoop(ob, from, to, 1, [&](OpBuilder &tb, Value t) {
      emitTile(tb, nIv, clampedTileStart(tb, t, rowsPerTile, pixels),
               rowsPerTile, group);
    });
  };
  bool overlapLast = full && lastTileIsFull(rowsPerTile, rest, pixels);
  if (tilesThreaded(rowsPerTile, groups)) {
    // With threads, the overlapping last tile runs in the iteration of
    // the tile before it (two tiles of different threads writing the
    // same bytes would race); a short last tile is one more iteration
    // (serial after the loop, the other threads waited for it: 4 single
    // pixels of 512 channels each in a 14x14 layer). (The threaded
    // kernels ran the last tile's rows past the end on the last pixel
    // again, storing each row under a condition: twice the code of the
    // serial kernels, which MobileNet v2's compile time paid for.)
    int64_t tiles = rest && !overlapLast ? full + 1 : full;
    parallelOverImages(
        b, tiles * groups, [&](OpBuilder &pb, Value nIv, Value i) {
          // One group (null) when the tile's channels are all one group.
          Value t = i, group;
          if (groups > 1)
            std::tie(t, group) = opaqueDivRem(pb, i, groups);
          if (overlapLast) {
            Value last = arith::CmpIOp::create(
                pb, loc, arith::CmpIPredicate::eq, t, idx(pb, full - 1));
            // One statement per op: the IR's order must not depend on
            // the compiler's order of evaluating arguments.
            Value next = add(pb, t, 1);
            Value after = add(pb, t, 2);
            Value end = arith::SelectOp::create(pb, loc, last, after, next);
            clampedTiles(pb, nIv, t, end, group);
            return;
          }
          Value first = mul(pb, t, rowsPerTile);
          if (!rest) {
            emitTile(pb, nIv, first, rowsPerTile, group);
            return;
          }
          // Fewer pixels than a tile (a fully connected layer): the rest
          // tile alone.
          if (!full) {
            emitRest(pb, nIv, group);
            return;
          }
          Value isFull = arith::CmpIOp::create(
              pb, loc, arith::CmpIPredicate::ult, t, idx(pb, full));
          scf::IfOp::create(
              pb, loc, isFull,
              [&](OpBuilder &tb, Location) {
                emitTile(tb, nIv, first, rowsPerTile, group);
                scf::YieldOp::create(tb, loc);
              },
              [&](OpBuilder &eb, Location) {
                emitRest(eb, nIv, group);
                scf::YieldOp::create(eb, loc);
              });
        });
    return;
  }
  forLoop(b, 0, s.n, 1, [&](OpBuilder &lb, Value nIv) {
    auto allTiles = [&](OpBuilder &gb, Value group) {
      if (overlapLast) {
        clampedTiles(gb, nIv, idx(gb, 0), idx(gb, full + 1), group);
        return;
      }
      if (full)
        forLoop(gb, 0, full, 1, [&](OpBuilder &tb, Value t) {
          emitTile(tb, nIv, mul(tb, t, rowsPerTile), rowsPerTile, group);
        });
      emitRest(gb, nIv, group);
    };
    if (groupMajor && groups > 1)
      forLoop(lb, 0, groups, 1, allTiles);
    else
      allTiles(lb, Value());
  });
}

Value KernelBuilder::windowSum(OpBuilder &ob, Value nIv, Value ih, Value iw) {
  int64_t runBytes = s.dw == 1 ? s.kw * s.cp : s.cp;
  int64_t runs = s.dw == 1 ? 1 : s.kw;
  int64_t width = std::clamp<int64_t>(
      static_cast<int64_t>(llvm::PowerOf2Ceil(runBytes)), 16, 64);
  Value sum = constant(DenseElementsAttr::get(
      VectorType::get({width / 4}, ob.getI32Type()), ob.getI32IntegerAttr(0)));
  for (int64_t y = 0; y < s.kh; ++y) {
    Value row = add(ob, ih, y * s.dh);
    for (int64_t t = 0; t < runs; ++t) {
      Value column = mul(ob, add(ob, iw, t * s.dw), s.cp);
      for (int64_t off = 0; off < runBytes; off += width)
        sum = addWindowBytes(ob, sum,
                             windowBytes(ob, width,
                                         std::min(width, runBytes - off),
                                         {nIv, row, add(ob, column, off)}));
    }
  }
  sum = segmentSums(ob, sum, width / 4);
  if (width / 4 != s.lanes())
    sum = vector::ShuffleOp::create(ob, loc, sum, sum,
                                    SmallVector<int64_t>(s.lanes(), 0));
  return sum;
}

SmallVector<Value> KernelBuilder::contiguousWindowSums(OpBuilder &ob, Value nIv,
                                                       Value iw, int64_t rows) {
  int64_t perLoad = 64 / s.cp, lanesPerPixel = s.cp / 4;
  SmallVector<Value> sums;
  for (int64_t first = 0; first < rows; first += perLoad) {
    int64_t count = std::min(perLoad, rows - first);
    Value sum = constant(DenseElementsAttr::get(
        VectorType::get({16}, ob.getI32Type()), ob.getI32IntegerAttr(0)));
    sum = addWindowBytes(
        ob, sum,
        windowBytes(ob, 64, count * s.cp,
                    {nIv, idx(ob, 0), mul(ob, add(ob, iw, first), s.cp)}));
    sum = segmentSums(ob, sum, lanesPerPixel);
    for (int64_t r = 0; r < count; ++r)
      sums.push_back(vector::ShuffleOp::create(
          ob, loc, sum, sum,
          SmallVector<int64_t>(s.lanes(), r * lanesPerPixel)));
  }
  return sums;
}

int64_t KernelBuilder::columnSumPixels() const {
  if (s.dw != 1 || s.cp % 4 != 0)
    return 0;
  int64_t columns = 64 / s.cp;
  if (columns < s.kw)
    return 0;
  int64_t g = std::min<int64_t>((columns - s.kw) / s.sw + 1, s.ow);
  return g >= 2 ? g : 0;
}

SmallVector<Value> KernelBuilder::windowSumsByColumns(OpBuilder &ob, Value nIv,
                                                      ArrayRef<Value> ihBase,
                                                      ArrayRef<Value> iwBase,
                                                      bool pairs) {
  int64_t g = columnSumPixels(), perColumn = s.cp / 4;
  if (pairs)
    g -= g % 2;
  int64_t rows = ihBase.size(), lanes = s.lanes();
  auto sumType = VectorType::get({16}, ob.getI32Type());
  auto accType = VectorType::get({lanes}, ob.getI32Type());
  Value upperHalf = pairs ? laneMask(lanes, lanes / 2, lanes / 2) : Value();
  SmallVector<Value> sums;
  for (int64_t r0 = 0; r0 < rows; r0 += g) {
    int64_t count = std::min(g, rows - r0);
    if (count == 1) {
      sums.push_back(windowSum(ob, nIv, ihBase[r0], iwBase[r0]));
      continue;
    }
    // The group's vectors: pixel j and the pixel sharing its vector (j + 1
    // with pairs; j itself without, or for the group's last pixel).
    SmallVector<std::pair<int64_t, int64_t>> members;
    for (int64_t j = 0; j < count; ++j) {
      int64_t k = pairs && j + 1 < count ? j + 1 : j;
      members.push_back({j, k});
      j = k;
    }
    Value span =
        arith::SubIOp::create(ob, loc, iwBase[r0 + count - 1], iwBase[r0]);
    Value oneRow = arith::CmpIOp::create(ob, loc, arith::CmpIPredicate::eq,
                                         span, idx(ob, (count - 1) * s.sw));
    auto group =
        scf::IfOp::create(ob, loc, SmallVector<Type>(members.size(), accType),
                          oneRow, /*withElseRegion=*/true);
    // One row: column sums.
    {
      OpBuilder tb = group.getThenBodyBuilder();
      int64_t bytes = ((count - 1) * s.sw + s.kw) * s.cp;
      Value column = mul(tb, iwBase[r0], s.cp);
      Value zero =
          constant(DenseElementsAttr::get(sumType, tb.getI32IntegerAttr(0)));
      Value sum = zero;
      for (int64_t y = 0; y < s.kh; ++y)
        sum = addWindowBytes(
            tb, sum,
            windowBytes(tb, 64, bytes,
                        {nIv, add(tb, ihBase[r0], y * s.dh), column}));
      // Lane c + k of `sum` added to lane c, for each of the window's
      // other lanes k (the lanes past the end read zeros).
      Value window = sum;
      for (int64_t k = 1; k < s.kw * perColumn; ++k) {
        SmallVector<int64_t> shift;
        for (int64_t i = 0; i < 16; ++i)
          shift.push_back(i + k);
        window = arith::AddIOp::create(
            tb, loc, window,
            vector::ShuffleOp::create(tb, loc, sum, zero, shift));
      }
      SmallVector<Value> results;
      for (auto [j, k] : members) {
        SmallVector<int64_t> from(lanes, j * s.sw * perColumn);
        std::fill(from.begin() + lanes / 2, from.end(), k * s.sw * perColumn);
        results.push_back(
            vector::ShuffleOp::create(tb, loc, window, window, from));
      }
      scf::YieldOp::create(tb, loc, results);
    }
    // Across rows: each pixel's own sum.
    {
      OpBuilder eb = group.getElseBodyBuilder();
      SmallVector<Value> results;
      for (auto [j, k] : members) {
        Value sum = windowSum(eb, nIv, ihBase[r0 + j], iwBase[r0 + j]);
        if (k != j)
          sum = arith::SelectOp::create(
              eb, loc, upperHalf,
              windowSum(eb, nIv, ihBase[r0 + k], iwBase[r0 + k]), sum);
        results.push_back(sum);
      }
      scf::YieldOp::create(eb, loc, results);
    }
    for (auto [result, member] : llvm::enumerate(members)) {
      Value sum = group.getResult(result);
      sums.push_back(sum);
      if (member.second != member.first)
        sums.push_back(sum);
    }
  }
  return sums;
}

Value KernelBuilder::windowBytes(OpBuilder &ob, int64_t width, int64_t n,
                                 SmallVector<Value> at) {
  assert(s.flavor == KernelFlavor::VNNI && s.d >= -128 && s.d <= 128 &&
         "a VNNI window coefficient (KernelSpec::fromAttr)");
  // The input as [n, hp, wp * cp]: a run of taps is one row slice.
  Value rows = collapsedOnce(memo.inputRows, x, {{0}, {1}, {2, 3}});
  auto bytes = VectorType::get({width}, ob.getI8Type());
  Value chunk;
  if (n == width) {
    chunk = vector::LoadOp::create(ob, loc, bytes, rows, at);
  } else {
    // Bytes that flip to 0 below.
    Value fill = constant(DenseElementsAttr::get(
        bytes, ob.getI8IntegerAttr(s.inputSigned ? -128 : 0)));
    chunk = vector::MaskedLoadOp::create(ob, loc, bytes, rows, at,
                                         laneMask(width, 0, n), fill);
  }
  // Signed input bytes x as loadA reads them: x xor 0x80 = x + 128.
  if (s.inputSigned)
    chunk = arith::XOrIOp::create(
        ob, loc, chunk,
        constant(DenseElementsAttr::get(bytes, ob.getI8IntegerAttr(-128))));
  return chunk;
}

Value KernelBuilder::addWindowBytes(OpBuilder &ob, Value sum, Value chunk) {
  Value coefficient = constant(
      DenseElementsAttr::get(cast<VectorType>(chunk.getType()),
                             ob.getI8IntegerAttr(s.d == 128 ? -128 : s.d)));
  return vpdpbusd(ob, sum, chunk, coefficient);
}

Value KernelBuilder::segmentSums(OpBuilder &ob, Value sum, int64_t segment) {
  int64_t lanes = cast<VectorType>(sum.getType()).getNumElements();
  for (int64_t k = segment / 2; k >= 1; k /= 2) {
    SmallVector<int64_t> swap;
    for (int64_t i = 0; i < lanes; ++i)
      swap.push_back(i ^ k);
    sum = arith::AddIOp::create(
        ob, loc, sum, vector::ShuffleOp::create(ob, loc, sum, sum, swap));
  }
  return sum;
}

Value KernelBuilder::loadA(OpBuilder &ob, Value nIv, Value ih, Value iw,
                           Value c) {
  Type i8 = ob.getI8Type(), i16 = ob.getI16Type(), i32 = ob.getI32Type();
  // The 32-bit word of `parts` elements of `type` at (nIv, ih, iw, c) in
  // every i32 lane (flipped to unsigned bytes with `flip`), seen as a
  // vector of `type`.
  auto broadcastWord = [&](Type type, int64_t parts, bool flip) -> Value {
    Value loaded = vector::LoadOp::create(
        ob, loc, VectorType::get({parts}, type), x, ValueRange{nIv, ih, iw, c});
    Value word = vector::ExtractOp::create(
        ob, loc,
        vector::BitCastOp::create(ob, loc, VectorType::get({1}, i32), loaded),
        ArrayRef<int64_t>{0});
    if (flip)
      word = arith::XOrIOp::create(ob, loc, word,
                                   intConst(ob, loc, i32, 0x80808080LL));
    int64_t lanes = s.lanes();
    Value splat = vector::BroadcastOp::create(
        ob, loc, VectorType::get({lanes}, i32), word);
    return vector::BitCastOp::create(
        ob, loc, VectorType::get({parts * lanes}, type), splat);
  };
  switch (s.flavor) {
  case KernelFlavor::VNNI:
    return broadcastWord(i8, 4, s.inputSigned);
  case KernelFlavor::Int16:
  case KernelFlavor::Int16AVX512:
    // x holds x - izp as i16 (emitGemmConv widens it).
    return broadcastWord(i16, 2, /*flip=*/false);
  case KernelFlavor::Generic: {
    Value v = memref::LoadOp::create(ob, loc, x, ValueRange{nIv, ih, iw, c});
    v = extendTo(ob, loc, v, i32, !s.inputSigned);
    v = arith::SubIOp::create(ob, loc, v, intConst(ob, loc, i32, s.izp));
    return vector::BroadcastOp::create(ob, loc,
                                       VectorType::get({s.lanes()}, i32), v);
  }
  case KernelFlavor::Depthwise:
  case KernelFlavor::DepthwiseVNNI:
  case KernelFlavor::DepthwiseAVX2:
    break;
  }
  llvm_unreachable("not a GEMM flavor");
}

Value KernelBuilder::step(OpBuilder &ob, Value acc, Value a, Value wv) {
  Type i32 = ob.getI32Type();
  switch (s.flavor) {
  case KernelFlavor::VNNI:
  case KernelFlavor::DepthwiseVNNI:
    return vpdpbusd(ob, acc, a, wv);
  case KernelFlavor::Int16:
  case KernelFlavor::Int16AVX512: {
    StringRef name = s.flavor == KernelFlavor::Int16
                         ? "llvm.x86.avx2.pmadd.wd"
                         : "llvm.x86.avx512.pmaddw.d.512";
    Value p = intrinsic(ob, name, acc.getType(), ValueRange{a, wv});
    return arith::AddIOp::create(ob, loc, acc, p);
  }
  case KernelFlavor::Depthwise:
  case KernelFlavor::DepthwiseAVX2:
    // i32 lanes of x times the tap's weights, extended once per kernel
    // row (buildDepthwiseRowTiles).
    return arith::AddIOp::create(ob, loc, acc,
                                 arith::MulIOp::create(ob, loc, a, wv));
  default: {
    Value wide =
        arith::ExtSIOp::create(ob, loc, VectorType::get({s.lanes()}, i32), wv);
    return arith::AddIOp::create(ob, loc, acc,
                                 arith::MulIOp::create(ob, loc, a, wide));
  }
  }
}
