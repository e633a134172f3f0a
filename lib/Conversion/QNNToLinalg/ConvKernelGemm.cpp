//===- ConvKernelGemm.cpp - the GEMM kernel body -------------------------===//
//
// KernelBuilder::buildGemm: the convolution and dense kernels (a GEMM
// over pixels and the (kh, kw, c) reduction).
//
//===----------------------------------------------------------------------===//

#include "ConvKernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::qnn;
using namespace mlir::qnn::lowering;

void KernelBuilder::buildGemm() {
  Type i32 = b.getI32Type();
  int64_t lanes = s.lanes(), kg = s.kGroup();
  int64_t blocks = s.op / lanes, chunks = s.cp / kg;
  auto accType = VectorType::get({lanes}, i32);
  Type wElem = cast<MemRefType>(w.getType()).getElementType();
  auto wVecType = VectorType::get({lanes * kg}, wElem);
  bool windowSums = s.flavor == KernelFlavor::VNNI && s.d != 0;
  // Pointwise VNNI kernels with a light epilogue are software-pipelined
  // (see below); their groups may also be 3 blocks (144 channels: 3
  // groups of 3 rather than 9 of 1, 88 -> 76 us on Zen 4).
  int64_t pixels = s.oh * s.ow;
  // Pairs of pixels (pairsPixels) take plain tiles of 16 pixels: 8
  // accumulators, as 8 pixels of one block had.
  bool pairs = pairsPixels();
  bool pipelinable = epilogue && !pairs && s.flavor == KernelFlavor::VNNI &&
                     s.kh == 1 && s.kw == 1 && epilogueChannelVectors() <= 5 &&
                     !perLaneShifts();
  SmallVector<int64_t> nrChoices =
      s.flavor == KernelFlavor::VNNI || s.flavor == KernelFlavor::Int16AVX512
          ? SmallVector<int64_t>{4, 2, 1}
          : SmallVector<int64_t>{2, 1};
  if (pipelinable)
    nrChoices = {4, 2, 3, 1};
  // A long reduction (K >= 256: a 64-channel group's weights are 16 KiB
  // or more) takes units of 6 pixels x 2 blocks rather than 3 x 4 when
  // the blocks pair up: the same 12 accumulators, half the weight bytes
  // per vpdpbusd (2 weight vectors and 6 broadcasts per 12), which is
  // what a core with two vpdpbusd per cycle streams from L2 when the
  // weights do not fit its L1 (Xeon: see the README). Zen 4, one thread,
  // 2 alternated runs: pw5 230 -> 229 us, pw7 227-228 -> 226-227, pw13
  // 231-234 -> 229; AOT MobileNet v2 within 1% (serial medians
  // 2.45-2.60 ms against 2.48-2.57 in seven alternated rounds, a noisy
  // phase). Pairs of blocks take 6 pixels at every K (below); fours of
  // blocks as 6 x 2 below K = 256 ran as fast as 3 x 4 (pw1 146-147 us
  // either way), so those stay 3 x 4.
  bool wideUnits = pipelinable && chunks >= 64 && blocks % 2 == 0;
  // Few pixels for such units: their last unit recomputes pixels of the
  // one before it (a 7x7 layer: 9 units, 54 pixels for 49). Plain tiles
  // of 7 pixels x 2 blocks (14 accumulators) take them where that saves
  // more than 5% of the pixels; at K >= 256 the pipelining gains
  // nothing. Zen 5, one thread, pw13 (7x7, K = N = 1024): 105 -> 98-99
  // us (10 x 2: 99-100; 5 x 4: 99-102; 7 x 1: 120-124).
  bool sevenRows =
      wideUnits && 20 * ((pixels + 6) / 7 * 7) < 19 * ((pixels + 5) / 6 * 6);
  if (sevenRows)
    pipelinable = false;
  if (wideUnits)
    nrChoices = {2};
  int64_t nr = 1;
  for (int64_t v : nrChoices)
    if (blocks % v == 0) {
      nr = v;
      break;
    }
  // Output pixels per tile: the 512-bit flavors have 32 vector registers,
  // of which up to 24 hold accumulators (rows x nr); the 256-bit ones
  // have 16. AVX2 pairs of blocks take 5 pixels:
  // 10 accumulators, two weight vectors, a broadcast and a product, so
  // that each step issues 5 broadcasts and 2 weight loads per 10
  // vpmaddwd + vpaddd rather than 4 and 2 per 8 (Zen 4 issues 6
  // instructions per cycle beside its 2 vpmaddwd: the int16 pointwise
  // loop is bound by the front end). AOT, one thread, Zen 4, x86-64-v3
  // code: pw1 (K = 32) 406 -> 383 us, pw3 627 -> 614, pw13 573 -> 561
  // (6 pixels: 380, 614, 578; the registers run out at K = 1024).
  int64_t tileRows = 4;
  if (s.flavor == KernelFlavor::VNNI || s.flavor == KernelFlavor::Int16AVX512)
    for (int64_t r : {8, 6, 4})
      if (r * nr <= 24) {
        tileRows = r;
        break;
      }
  if (s.flavor == KernelFlavor::Int16 && nr == 2)
    tileRows = 5;
  if (sevenRows)
    tileRows = 7;
  if (pairs)
    tileRows = 16;
  // The accumulators of a tile of `rows` pixels: one per (pixel, block),
  // or per pair of pixels (the last one alone when `rows` is odd).
  auto accumulatorCount = [&](int64_t rows) {
    return pairs ? (rows + 1) / 2 : rows * nr;
  };
  // The lanes of the second pixel of a pair.
  Value upperHalf = pairs ? laneMask(lanes, lanes / 2, lanes / 2) : Value();
  // Pair q's value from pixel values `v` (per pixel): lanes of pixel 2q,
  // then of pixel 2q + 1 (2q again when it is the last pixel).
  auto pairOf = [&](OpBuilder &ob, ArrayRef<Value> v, size_t q) -> Value {
    Value second = v[std::min(2 * q + 1, v.size() - 1)];
    if (second == v[2 * q])
      return second;
    return arith::SelectOp::create(ob, loc, upperHalf, second, v[2 * q]);
  };

  // Short reductions are unrolled (the LLVM pipeline has no unroller):
  // the K steps of a tap when they load at most 8 weight vectors in all
  // (more, and LLVM schedules the loads of every step first and spills:
  // pw1, K = 32 x 4 blocks, ran 1.5x slower), and the taps of a first
  // convolution, whose taps hold one or two K steps each; not with window
  // sums (a uint8 first convolution: unrolled, LLVM hoisted every tap's
  // broadcasts above the window sums and spilled them, MobileNet
  // 0.25/128 0.165 against 0.146 ms; with row sums, which they replaced,
  // 30 against 20 us for the layer). With
  // threads, the rows of taps stay a loop: in the outlined OpenMP body
  // LLVM hoists every tap's weight loads out of the tile loop (18
  // vectors for a 3x3 first convolution beside its 16 accumulators) and
  // spills them; per row of taps the loads stay inside (two-thread
  // MobileNet conv0 62 -> 47 us on Zen 5).
  bool unrollChunks = chunks * nr <= 8;
  bool unrollTaps = chunks <= 2 && s.kh * s.kw <= 16 && !windowSums;
  // Serial code loops over the channel groups outside the tiles when the
  // packed weights would not stay in L2 beside the activations: each
  // group's weights are then read once for all the tiles (pw13, 1 MiB of
  // weights read from L3 once per 6-pixel tile, ran 9% faster on Zen 5;
  // pw3/pw5/pw7, whose weights stay in L2, ran the same either way).
  auto wType = cast<MemRefType>(w.getType());
  int64_t weightBytes =
      wType.getNumElements() * wType.getElementTypeBitWidth() / 8;
  bool groupMajor = weightBytes > kGroupMajorWeightBytes;
  // The accumulators of the nr blocks from channel blockChannel[j], for
  // `rows` pixels: the VNNI correction terms plus the epilogue's bias (or
  // the offset form's bias + D: initialAccumulator), in
  // (pixel, block) order, or one per pair of pixels (pairsPixels).
  auto initialAccumulators = [&](OpBuilder &bb, ArrayRef<Value> blockChannel,
                                 int64_t rows) {
    Value zero = arith::ConstantOp::create(
        bb, loc, DenseElementsAttr::get(accType, bb.getI32IntegerAttr(0)));
    SmallVector<Value> init(accumulatorCount(rows), zero);
    for (int64_t j = 0; j < nr; ++j) {
      Value ch = blockChannel[j];
      Value base = zero;
      if (s.flavor == KernelFlavor::VNNI)
        base = loadBlock(bb, accType, corr, ch);
      base = initialAccumulator(bb, base, ch);
      for (size_t i = j; i < init.size(); i += nr)
        init[i] = base;
    }
    return init;
  };
  // With a window coefficient, each pixel's accumulators start from its
  // window sum too (windowSum): `init` in (pixel, block) or pair order, the
  // pixels' windows starting at (ihBase[r], iwBase[r]).
  auto addWindowSums = [&](OpBuilder &bb, Value nIv, ArrayRef<Value> ihBase,
                           ArrayRef<Value> iwBase,
                           MutableArrayRef<Value> init) {
    if (!windowSums)
      return;
    SmallVector<Value> sums;
    bool negated = s.d == 128;
    // A flattened pointwise kernel's pixels (one row: hp = 1) are
    // consecutive, their bytes contiguous.
    if (flatPointwise() && llvm::isPowerOf2_64(s.cp) && s.cp <= 64) {
      sums = contiguousWindowSums(bb, nIv, iwBase[0], iwBase.size());
    } else if (columnSumPixels() != 0 && ihBase.size() > 1) {
      sums = windowSumsByColumns(bb, nIv, ihBase, iwBase, pairs);
    } else {
      for (size_t r = 0; r < ihBase.size(); ++r)
        sums.push_back(windowSum(bb, nIv, ihBase[r], iwBase[r]));
    }
    // Accumulator i takes pixel i / nr's sum, or pair i's.
    for (size_t i = 0; i < init.size(); ++i) {
      Value sum = pairs ? pairOf(bb, sums, i) : sums[i / nr];
      Value &v = init[i];
      v = negated ? arith::SubIOp::create(bb, loc, v, sum).getResult()
                  : arith::AddIOp::create(bb, loc, v, sum).getResult();
    }
  };
  // The first output channel of each block of the group starting at
  // block b0.
  auto blockChannels = [&](OpBuilder &bb, Value b0) {
    SmallVector<Value> blockChannel;
    for (int64_t j = 0; j < nr; ++j)
      blockChannel.push_back(mul(bb, add(bb, b0, j), lanes));
    return blockChannel;
  };
  // One K step (chunk cc of tap (khIv, kwIv)) of `rows` pixels whose
  // input rows and columns start at ihBase/iwBase, for the group of
  // blocks from b0.
  auto kStep = [&](OpBuilder &kb, Value nIv, ArrayRef<Value> ihBase,
                   ArrayRef<Value> iwBase, Value khOff, Value kwOff, Value khIv,
                   Value kwIv, Value cc, Value b0, ValueRange acc) {
    int64_t rows = ihBase.size();
    Value c = mul(kb, cc, kg);
    SmallVector<Value> av, wv, next;
    for (int64_t r = 0; r < rows; ++r) {
      Value ih = arith::AddIOp::create(kb, loc, ihBase[r], khOff);
      Value iw = arith::AddIOp::create(kb, loc, iwBase[r], kwOff);
      av.push_back(loadA(kb, nIv, ih, iw, c));
    }
    for (int64_t j = 0; j < nr; ++j)
      wv.push_back(
          loadBlock(kb, wVecType, w,
                    ValueRange{add(kb, b0, j), khIv, kwIv, cc, idx(kb, 0)}));
    if (pairs) {
      // Each pixel's broadcast bytes in its half of the lanes.
      SmallVector<Value> words;
      for (Value a : av)
        words.push_back(vector::BitCastOp::create(kb, loc, accType, a));
      for (size_t q = 0; q < acc.size(); ++q)
        next.push_back(step(kb, acc[q],
                            vector::BitCastOp::create(kb, loc, av[0].getType(),
                                                      pairOf(kb, words, q)),
                            wv[0]));
      return next;
    }
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < nr; ++j)
        next.push_back(step(kb, acc[r * nr + j], av[r], wv[j]));
    return next;
  };
  // Four (two) channel blocks of a pixel narrow into one 64-byte
  // (32-byte) store.
  std::optional<NarrowingTail> tail = narrowingTail();
  bool packed = tail && (lanes == 16 ? nr >= 2 : nr == 2);
  // One block of 16 stored channels in a flattened pointwise kernel
  // (consecutive pixels, their outputs contiguous): up to four pixels'
  // results narrow together, as four blocks of one pixel do (packBytes:
  // the halved tail, one 64-byte store), rather than one vpmovusdb each.
  bool packsPixels =
      tail && lanes == 16 && nr == 1 && s.op == 16 && !s.oc && flatPointwise();
  // The per-channel constants of a group of blocks: each block's
  // (loadChannelConstants), and the packed tail's per-channel parts.
  struct GroupConstants {
    SmallVector<SmallVector<Value>> blocks;
    std::optional<PackedTail> tail;
  };
  auto channelConstants = [&](OpBuilder &bb, ArrayRef<Value> blockChannel) {
    GroupConstants constants;
    for (int64_t j = 0; epilogue && j < nr; ++j)
      constants.blocks.push_back(loadChannelConstants(bb, blockChannel[j]));
    if (packed) {
      // The vectors as storePixel packs them (three blocks as four).
      SmallVector<ArrayRef<Value>> perVector(constants.blocks.begin(),
                                             constants.blocks.end());
      if (nr == 3)
        perVector.push_back(perVector.back());
      constants.tail = packTail(bb, *tail, perVector);
    } else if (packsPixels) {
      // Four pixels' vectors of the same channels.
      SmallVector<ArrayRef<Value>> perVector(4, constants.blocks[0]);
      constants.tail = packTail(bb, *tail, perVector);
    }
    return constants;
  };
  // Applies the epilogue (if any) to the nr accumulators `pixelAccs` of
  // pixel (oh, ow), whose blocks' per-channel constants are `constants`,
  // and stores the pixel's output channels of blockChannel[j]: packed
  // into one store, or one store per block.
  auto storePixel = [&](OpBuilder &bb, Value nIv, Value oh, Value ow,
                        ArrayRef<Value> blockChannel, ArrayRef<Value> pixelAccs,
                        const GroupConstants &constants) {
    if (!packed) {
      for (int64_t j = 0; j < nr; ++j) {
        Value v = pixelAccs[j];
        if (epilogue)
          v = applyEpilogue(bb, v, constants.blocks[j]);
        storeChannels(bb, v, ValueRange{nIv, oh, ow}, blockChannel[j]);
      }
      return;
    }
    SmallVector<Value> vals;
    for (int64_t j = 0; j < nr; ++j)
      vals.push_back(
          applyEpilogue(bb, pixelAccs[j], constants.blocks[j], &*tail));
    const PackedTail *perChannel = constants.tail ? &*constants.tail : nullptr;
    if (lanes == 8) {
      storeChannels(bb, packBytes8(bb, vals[0], vals[1], *tail, perChannel),
                    ValueRange{nIv, oh, ow}, blockChannel[0]);
      return;
    }
    // Two or three blocks: opaque, or LLVM splits the vpermd around the
    // extract of the low half (four shuffles instead of one). Three
    // blocks pack as four (the last one twice) and store 48 bytes.
    if (nr == 3)
      vals.push_back(vals.back());
    Value bytes = packBytes(bb, vals, *tail, perChannel, /*opaque=*/nr != 4);
    if (nr != 4)
      bytes = vector::ExtractStridedSliceOp::create(
          bb, loc, bytes, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{nr * 16},
          ArrayRef<int64_t>{1});
    storeChannels(bb, bytes, ValueRange{nIv, oh, ow}, blockChannel[0]);
  };
  // storePixel for two pixels (ohs[k], ows[k]) of the 8-lane packed
  // flavor (Int16, nr = 2): their four accumulators (pixel-major) narrow
  // together (packBytes8Pair), one 16-byte store per pixel.
  auto storePixelPair8 = [&](OpBuilder &bb, Value nIv, ArrayRef<Value> ohs,
                             ArrayRef<Value> ows, ArrayRef<Value> blockChannel,
                             ArrayRef<Value> pixelAccs,
                             const GroupConstants &constants) {
    SmallVector<Value> vals;
    for (auto [i, acc] : llvm::enumerate(pixelAccs))
      vals.push_back(applyEpilogue(bb, acc, constants.blocks[i % 2], &*tail));
    Value bytes = packBytes8Pair(bb, vals[0], vals[1], vals[2], vals[3], *tail,
                                 constants.tail ? &*constants.tail : nullptr);
    for (int64_t k = 0; k < 2; ++k)
      storeChannels(bb,
                    vector::ExtractStridedSliceOp::create(
                        bb, loc, bytes, ArrayRef<int64_t>{16 * k},
                        ArrayRef<int64_t>{16}, ArrayRef<int64_t>{1}),
                    ValueRange{nIv, ohs[k], ows[k]}, blockChannel[0]);
  };

  // The output seen as [n, pixels * channels]: stores of consecutive
  // pixels (pairsPixels, packsPixels).
  auto outputRows = [&]() {
    ReassociationIndices rest;
    for (int64_t d = 1; d < cast<MemRefType>(out.getType()).getRank(); ++d)
      rest.push_back(d);
    return collapsedOnce(memo.outputRows, out, {{0}, rest});
  };
  // Applies the epilogue to the accumulators `accs` (one to four) of the
  // consecutive pixels from flat pixel `pixel` of image nIv (packsPixels)
  // and stores their outputs as one run of 16 bytes per pixel: four
  // pack as four blocks do, three as four (the last twice, 48 bytes
  // stored), two as two, one as two (16 bytes stored).
  auto storePixelRun = [&](OpBuilder &bb, Value nIv, Value pixel,
                           ArrayRef<Value> accs,
                           const GroupConstants &constants) {
    SmallVector<Value> vals;
    for (Value acc : accs)
      vals.push_back(applyEpilogue(bb, acc, constants.blocks[0], &*tail));
    int64_t count = vals.size();
    if (count % 2)
      vals.push_back(vals.back());
    Value bytes =
        packBytes(bb, vals, *tail, constants.tail ? &*constants.tail : nullptr,
                  /*opaque=*/count != 4);
    if (count != 4)
      bytes = vector::ExtractStridedSliceOp::create(
          bb, loc, bytes, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{count * 16},
          ArrayRef<int64_t>{1});
    vector::StoreOp::create(bb, loc, bytes, outputRows(),
                            ValueRange{nIv, mul(bb, pixel, 16)});
  };

  // Applies the epilogue to pair accumulator `acc` (pairsPixels) and
  // stores the outputs of its `count` pixels (2, or the last pixel
  // alone) from flat pixel `pixel` of image nIv: their channels are
  // consecutive (oc per pixel), lanes 0..oc-1 and 8..8+oc-1 as one
  // store (masked unless it is 16 whole lanes).
  auto storePair = [&](OpBuilder &bb, Value nIv, Value pixel, int64_t count,
                       Value acc, const GroupConstants &constants) {
    Value v = applyEpilogue(bb, acc, constants.blocks[0]);
    int64_t half = lanes / 2;
    if (s.oc != half) {
      SmallVector<int64_t> order;
      for (int64_t i = 0; i < lanes; ++i)
        order.push_back(i < s.oc ? i : i < 2 * s.oc ? half + i - s.oc : 0);
      v = vector::ShuffleOp::create(bb, loc, v, v, order);
    }
    SmallVector<Value> at = {nIv, mul(bb, pixel, s.oc)};
    int64_t n = count * s.oc;
    if (n == lanes) {
      vector::StoreOp::create(bb, loc, v, outputRows(), at);
      return;
    }
    vector::MaskedStoreOp::create(bb, loc, outputRows(), at,
                                  laneMask(lanes, 0, n), v);
  };

  // One tile: every group of nr blocks (or the one `group` of a parallel
  // iteration) of the pixels (ohs[r], ows[r]), its epilogue applied as
  // soon as its reduction ends.
  auto tileBody = [&](OpBuilder &tb, Value nIv, Value first,
                      ArrayRef<Value> ohs, ArrayRef<Value> ows, Value group) {
    int64_t rows = ohs.size();
    // The nr blocks from b0.
    auto groupBody = [&](OpBuilder &bb, Value b0) {
      SmallVector<Value> blockChannel = blockChannels(bb, b0);
      SmallVector<Value> init = initialAccumulators(bb, blockChannel, rows);
      SmallVector<Value> ihBase, iwBase;
      for (int64_t r = 0; r < rows; ++r) {
        ihBase.push_back(mul(bb, ohs[r], s.sh));
        iwBase.push_back(mul(bb, ows[r], s.sw));
      }
      addWindowSums(bb, nIv, ihBase, iwBase, init);
      SmallVector<Value> accs = reduceLoop(
          bb, s.kh, init,
          [&](OpBuilder &b1, Value khIv, ValueRange a1) {
            Value khOff = mul(b1, khIv, s.dh);
            return reduceLoop(
                b1, s.kw, a1,
                [&](OpBuilder &b2, Value kwIv, ValueRange a2) {
                  Value kwOff = mul(b2, kwIv, s.dw);
                  return reduceLoop(
                      b2, chunks, a2,
                      [&](OpBuilder &kb, Value cc, ValueRange acc) {
                        return kStep(kb, nIv, ihBase, iwBase, khOff, kwOff,
                                     khIv, kwIv, cc, b0, acc);
                      },
                      unrollChunks);
                },
                unrollTaps);
          },
          unrollTaps && !parallel);
      GroupConstants constants = channelConstants(bb, blockChannel);
      if (loopedEpilogue(rows)) {
        // The tile's accumulators go through a stack buffer, and one
        // epilogue runs in a loop over its pixels.
        auto bufferType = MemRefType::get({rows * nr, lanes}, i32);
        Value buffer = scratch(bufferType);
        for (int64_t i = 0; i < rows * nr; ++i)
          vector::StoreOp::create(bb, loc, accs[i], buffer,
                                  ValueRange{idx(bb, i), idx(bb, 0)});
        forLoop(bb, 0, rows, 1, [&](OpBuilder &lb, Value r) {
          SmallVector<Value> pixelAccs;
          for (int64_t j = 0; j < nr; ++j)
            pixelAccs.push_back(vector::LoadOp::create(
                lb, loc, accType, buffer,
                ValueRange{add(lb, mul(lb, r, nr), j), idx(lb, 0)}));
          auto [oh, ow] =
              pixelCoords(lb, arith::AddIOp::create(lb, loc, first, r));
          storePixel(lb, nIv, oh, ow, blockChannel, pixelAccs, constants);
        });
        return;
      }
      if (pairs) {
        for (int64_t q = 0; 2 * q < rows; ++q)
          storePair(bb, nIv, add(bb, first, 2 * q),
                    std::min<int64_t>(2, rows - 2 * q), accs[q], constants);
        return;
      }
      if (packsPixels) {
        for (int64_t r = 0; r < rows; r += 4)
          storePixelRun(
              bb, nIv, add(bb, first, r),
              ArrayRef<Value>(accs).slice(r, std::min<int64_t>(4, rows - r)),
              constants);
        return;
      }
      for (int64_t r = 0; r < rows; ++r) {
        if (packed && lanes == 8 && r + 1 < rows) {
          storePixelPair8(bb, nIv, ohs.slice(r, 2), ows.slice(r, 2),
                          blockChannel, ArrayRef<Value>(accs).slice(r * nr, 4),
                          constants);
          ++r;
          continue;
        }
        SmallVector<Value> pixelAccs;
        for (int64_t j = 0; j < nr; ++j)
          pixelAccs.push_back(accs[r * nr + j]);
        storePixel(bb, nIv, ohs[r], ows[r], blockChannel, pixelAccs, constants);
      }
    };
    // A parallel iteration's one group, or the only one: no loop. (A
    // loop from group * nr to group * nr + nr stayed a loop of one trip
    // in LLVM, one more loop level whose induction variables loop
    // strength reduction analysed in every OpenMP body.)
    if (group || blocks == nr) {
      groupBody(tb, group ? mul(tb, group, nr) : idx(tb, 0));
      return;
    }
    forLoop(tb, 0, blocks, nr, groupBody);
  };
  // Pointwise kernels with an epilogue are software-pipelined across
  // units (a tile of `rows` pixels and one group of nr blocks):
  // each unit's accumulators stay in registers, carried to the next
  // unit, whose first K steps (unrolled) apply their epilogue pixel by
  // pixel between its vpdpbusd chains. The exact requantize costs two
  // vpmuldq (which issue on the same two pipes as vpdpbusd on Zen 4 and
  // Intel) and ~7 other vector instructions per 16 outputs, against K/4
  // vpdpbusd; after the reduction, the out-of-order core overlapped it
  // with the next unit's chains only in part. Two units' accumulators
  // share the 32 registers: 3 pixels for 3-4 blocks, 6 for 2 or 1.
  // On Zen 4 (one thread, against tiles of 6 or 8 pixels whose epilogue
  // followed their reduction): pw1 (K = 32) 169 -> 152 us, pw3 247 ->
  // 239, pw5 233 -> 228, MobileNet v2's expansions (K = 16..160) 3-13%
  // faster; K = 512, 1024 the same. (An earlier form kept the previous
  // unit's accumulators in a stack buffer: its 20 zmm stores and loads
  // per unit cost as much as the overlap gained on Zen 4.) The epilogue
  // may read up to five per-channel vectors besides the bias (the
  // multiplier, the difference to a common shift, see commonShift, and
  // lifted zero points and bounds, which the packed narrowing reads as
  // packed vectors once per unit: MobileNet v2's shared 56x56x24->144
  // layers 208 -> 194 us for two, 28x28x32->192 75 -> 70); with
  // per-lane shifts (four vectors per block) it ran up to 10% slower
  // pipelined (spills) and keeps plain tiles (not the offset form's
  // single shift per lane: perLaneShifts). With threads,
  // each parallel iteration is a strip of consecutive units, pipelined
  // within it (tile-major, as the parallel tiles are): 2 threads, Zen 4,
  // pw1 89 -> 77 us, pw3 129 -> 121, pw5 121 -> 116. Emulated VNNI takes
  // the same path; the int16 kernels do not (AVX2 has 16 registers).
  // Pairs of blocks take 6 pixels at every K, as single blocks do: the
  // same 12 accumulators as 3 x 4, 2 weight vectors and 6 broadcasts per
  // step. Against 4 pixels (Zen 4, AOT, one thread): MobileNet v2's
  // 112x112x16 -> 96 expansion 155-165 -> 145 us, its 28x28 projections
  // to 32 channels the same; v2 serial medians 2.48-2.51 -> 2.45-2.48 ms,
  // 2 threads within the noise.
  int64_t rows = nr <= 2 ? 6 : 3;
  int64_t groups = blocks / nr, tiles = pixels / rows;
  int64_t units = tiles * groups, rest = pixels % rows;
  if (!pipelinable || s.n * units <= 1) {
    pixelTileLoops(tileRows, groups, groupMajor, tileBody);
    return;
  }
  bool threaded = threadedWork();
  // With threads, each parallel iteration is a strip of consecutive
  // units: about 8 units per strip; at least 16 strips while there are
  // as many units, so that small layers still spread over the threads;
  // at most 64.
  auto stripsOf = [](int64_t n) {
    return std::min({n, std::max<int64_t>(n / 8, 16), int64_t(64)});
  };
  // The rest is one more tile ending at the last pixel, recomputing
  // pixels of the tile before it (as pixelTileLoops does), rather than a
  // plain tile body of its own (with threads, 1.2-1.6 KB more code in
  // each of MobileNet v2's pointwise kernels, and a tile the other
  // threads waited for). With threads, only where the last strip holds
  // every unit of the tile it overlaps: one thread writes those bytes
  // twice, the same values, and no other thread writes them.
  bool overlapLast = lastTileIsFull(rows, rest, pixels);
  if (overlapLast && threaded) {
    int64_t n = (tiles + 1) * groups, strips = stripsOf(n);
    if (groupMajor) {
      // Each group's last two tiles in one strip: no strip may start at
      // a group's last (overlapping) tile.
      for (int64_t k = 1; k < strips && overlapLast; ++k)
        overlapLast = k * n / strips % (tiles + 1) != tiles;
    } else {
      overlapLast = (strips - 1) * n / strips <= (tiles - 1) * groups;
    }
  }
  if (overlapLast) {
    ++tiles;
    units = tiles * groups;
    rest = 0;
  }
  // Unit u: (tile, group), tile-major, or group-major (above the weight
  // threshold, serial or threaded: a strip then runs over the tiles of
  // one or two groups, whose weights stay in L1).
  auto tileGroup = [&](OpBuilder &ob, Value u) -> std::pair<Value, Value> {
    if (groupMajor) {
      auto [g, t] = opaqueDivRem(ob, u, tiles);
      return {t, g};
    }
    return opaqueDivRem(ob, u, groups);
  };
  auto pixelOf = [&](OpBuilder &ob, Value t, int64_t r) {
    Value first =
        overlapLast ? clampedTileStart(ob, t, rows, pixels) : mul(ob, t, rows);
    return pixelCoords(ob, add(ob, first, r));
  };
  // What a unit needs of the unit before it for that unit's epilogue:
  // its tile, its blocks' first channels and their constants.
  struct Previous {
    Value t;
    SmallVector<Value> channel;
    GroupConstants constants;
  };
  auto previous = [&](OpBuilder &ob, Value u) {
    auto [t, g] = tileGroup(ob, u);
    Previous prev{t, blockChannels(ob, mul(ob, g, nr)), {}};
    prev.constants = channelConstants(ob, prev.channel);
    return prev;
  };
  // The epilogue of pixel r of the unit `prev` describes, whose
  // accumulators are `accs`.
  auto pixelEpilogue = [&](OpBuilder &ob, Value nIv, const Previous &prev,
                           int64_t r, ValueRange accs) {
    // Packed pixels: the run of up to four that pixel r ends (the callers
    // go through r in order), from pixel r - r % 4, whose column is its
    // flat index (hp = 1).
    if (packsPixels) {
      if (r % 4 != 3 && r != rows - 1)
        return;
      int64_t r0 = r - r % 4;
      SmallVector<Value> run(accs.begin() + r0, accs.begin() + r + 1);
      storePixelRun(ob, nIv, pixelOf(ob, prev.t, r0).second, run,
                    prev.constants);
      return;
    }
    auto [oh, ow] = pixelOf(ob, prev.t, r);
    SmallVector<Value> pixelAccs(accs.slice(r * nr, nr));
    storePixel(ob, nIv, oh, ow, prev.channel, pixelAccs, prev.constants);
  };
  // Unit u's reduction; with `prevAccs`, the epilogue of unit u - 1's
  // pixels spread over its first `unrolled` steps.
  int64_t unrolled = std::min<int64_t>(chunks, std::max<int64_t>(rows, 8));
  auto unitBody = [&](OpBuilder &ub, Value nIv, Value u,
                      ValueRange prevAccs) -> SmallVector<Value> {
    auto [t, g] = tileGroup(ub, u);
    Value b0 = mul(ub, g, nr);
    SmallVector<Value> accs =
        initialAccumulators(ub, blockChannels(ub, b0), rows);
    SmallVector<Value> ihBase, iwBase;
    for (int64_t r = 0; r < rows; ++r) {
      auto [oh, ow] = pixelOf(ub, t, r);
      ihBase.push_back(mul(ub, oh, s.sh));
      iwBase.push_back(mul(ub, ow, s.sw));
    }
    addWindowSums(ub, nIv, ihBase, iwBase, accs);
    std::optional<Previous> prev;
    if (!prevAccs.empty())
      prev = previous(ub, arith::SubIOp::create(ub, loc, u, idx(ub, 1)));
    Value zero = idx(ub, 0);
    auto stepAt = [&](OpBuilder &kb, Value cc, ValueRange args) {
      return kStep(kb, nIv, ihBase, iwBase, zero, zero, zero, zero, cc, b0,
                   args);
    };
    // The first unit of a range has no epilogue to interleave: a loop.
    int64_t steps = prev ? unrolled : 0;
    int64_t next = 0;
    for (int64_t cc = 0; cc < steps; ++cc) {
      accs = stepAt(ub, idx(ub, cc), accs);
      // Pixel r's epilogue after step r * unrolled / rows; the last
      // step takes the rest.
      for (; prev && next < rows &&
             (cc == unrolled - 1 || next * unrolled <= cc * rows);
           ++next)
        pixelEpilogue(ub, nIv, *prev, next, prevAccs);
    }
    if (steps < chunks) {
      auto loop = scf::ForOp::create(
          ub, loc, idx(ub, steps), idx(ub, chunks), idx(ub, 1), accs,
          [&](OpBuilder &lb, Location, Value cc, ValueRange args) {
            scf::YieldOp::create(lb, loc, stepAt(lb, cc, args));
          });
      accs.assign(loop.getResults().begin(), loop.getResults().end());
    }
    return accs;
  };
  // Units [begin, end) of image nIv: unit `begin`'s reduction, the next
  // ones each with the previous unit's epilogue, then the last unit's
  // epilogue.
  auto unitRange = [&](OpBuilder &rb, Value nIv, Value begin, Value next,
                       Value end) {
    SmallVector<Value> accs = unitBody(rb, nIv, begin, ValueRange{});
    auto loop = scf::ForOp::create(
        rb, loc, next, end, idx(rb, 1), accs,
        [&](OpBuilder &lb, Location, Value u, ValueRange args) {
          scf::YieldOp::create(lb, loc, unitBody(lb, nIv, u, args));
        });
    Previous last =
        previous(rb, arith::SubIOp::create(rb, loc, end, idx(rb, 1)));
    for (int64_t r = 0; r < rows; ++r)
      pixelEpilogue(rb, nIv, last, r, loop.getResults());
  };
  // The rest (fewer than `rows` pixels) of image nIv as a plain tile.
  auto restTile = [&](OpBuilder &rb, Value nIv) {
    if (!rest)
      return;
    SmallVector<Value> ohs, ows;
    for (int64_t r = 0; r < rest; ++r) {
      auto [oh, ow] = pixelCoords(rb, idx(rb, tiles * rows + r));
      ohs.push_back(oh);
      ows.push_back(ow);
    }
    tileBody(rb, nIv, idx(rb, tiles * rows), ohs, ows, Value());
  };
  if (threaded) {
    // The rest tile, if any, runs after the parallel loop.
    int64_t strips = stripsOf(units);
    parallelOverImages(b, strips, [&](OpBuilder &pb, Value nIv, Value sIv) {
      auto bound = [&](Value v) -> Value {
        return arith::DivUIOp::create(pb, loc, mul(pb, v, units),
                                      idx(pb, strips));
      };
      // In this order (the IR is the same whatever the C++ compiler's
      // order of evaluating arguments).
      Value begin = bound(sIv);
      Value end = bound(add(pb, sIv, 1));
      Value next = add(pb, begin, 1);
      unitRange(pb, nIv, begin, next, end);
    });
    forLoop(b, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) { restTile(nb, nIv); });
    return;
  }
  forLoop(b, 0, s.n, 1, [&](OpBuilder &nb, Value nIv) {
    Value begin = idx(nb, 0), next = idx(nb, 1), end = idx(nb, units);
    unitRange(nb, nIv, begin, next, end);
    restTile(nb, nIv);
  });
}
