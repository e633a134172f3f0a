//===- InstructionPeak.cpp - the peaks the kernels are measured against ---===//
//
// qnn-bench-peak: the throughput of the multiply-add instructions the
// kernels are built around, with enough independent accumulators to hide
// their latency (12 zmm, 6 ymm), on one core. Prints GOPS (one
// multiply-add = 2 operations), best of 3:
//   vpdpbusd zmm (AVX512-VNNI, the avx512-vnni target): 64 MACs each;
//   vpmaddwd + vpaddd zmm (AVX512BW, int16-avx512bw): 32 MACs;
//   vpmaddwd + vpaddd ymm (AVX2, int16): 16 MACs;
//   vpdpbusd zmm beside one vpmuldq per four (the vpdpbusd GOPS only): the
//   ceiling of a pointwise layer with K = 32 under the fixed-point
//   requantize, which takes two vpmuldq (the 32 x 32 -> 64-bit products of
//   the even and odd lanes) per 16 outputs against K / 4 = 8 vpdpbusd; the
//   floor-affine requantize takes one FMA, whose ceiling is the "K = 32
//   pointwise mix" below. The multiplies issue on the same pipes as
//   vpdpbusd on Zen 4 and Zen 5 (and on Intel's port 0), so that ratio
//   costs 20% of the peak; additions, shifts, blends and packs do not;
//   likewise beside vpaddsw, vpermt2d, vpaddq, vpackssdw, vpmulld, the
//   float route of a requantize (vmulps, vcvtdq2ps, vcvtps2dq) and zmm
//   stores (on Zen 4 the multiplies, vpaddsw, half a vpermt2d and more
//   than one store per twelve compete with vpdpbusd; see QNN_DP_WITH);
//   and with each operand loaded just before it, as a broadcast or as the
//   pixel-pair kernels' two broadcasts and vinserti64x4 (QNN_OPERAND_PEAK);
//   and with one vpaddq, vpsraq or vpcmpgtq into a mask register after
//   each vpdpbusd (QNN_DP_EACH: on Zen 5 only the compare competes).
// An instruction the CPU lacks is skipped.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace {

constexpr long kIterations = 20000000;

double seconds() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Twelve zmm accumulators c0..c11, zero, and the inline asm output operands
// that name them (the zmm measurements below share both).
#define QNN_ZMM_ACCUMULATORS                                                  \
  __m512i c0 = _mm512_setzero_si512(), c1 = c0, c2 = c0, c3 = c0, c4 = c0,     \
          c5 = c0, c6 = c0, c7 = c0, c8 = c0, c9 = c0, c10 = c0, c11 = c0
#define QNN_ZMM_OUTPUTS                                                       \
  [c0] "+v"(c0), [c1] "+v"(c1), [c2] "+v"(c2), [c3] "+v"(c3), [c4] "+v"(c4), \
      [c5] "+v"(c5), [c6] "+v"(c6), [c7] "+v"(c7), [c8] "+v"(c8),             \
      [c9] "+v"(c9), [c10] "+v"(c10), [c11] "+v"(c11)

#define QNN_STEP(insn, reg, acc)                                               \
  insn " %[a], %[b], %%" reg "\n\t"                                            \
       "vpaddd %%" reg ", %[" acc "], %[" acc "]\n\t"

__attribute__((target("avx512bw"))) double maddwdZmm() {
  __m512i a = _mm512_set1_epi16(3), b = _mm512_set1_epi16(5);
  QNN_ZMM_ACCUMULATORS;
  double start = seconds();
  for (long i = 0; i < kIterations; ++i)
    __asm__ volatile(
        QNN_STEP("vpmaddwd", "zmm16", "c0") QNN_STEP("vpmaddwd", "zmm17", "c1")
        QNN_STEP("vpmaddwd", "zmm18", "c2") QNN_STEP("vpmaddwd", "zmm19", "c3")
        QNN_STEP("vpmaddwd", "zmm20", "c4") QNN_STEP("vpmaddwd", "zmm21", "c5")
        QNN_STEP("vpmaddwd", "zmm22", "c6") QNN_STEP("vpmaddwd", "zmm23", "c7")
        QNN_STEP("vpmaddwd", "zmm24", "c8") QNN_STEP("vpmaddwd", "zmm25", "c9")
        QNN_STEP("vpmaddwd", "zmm26", "c10")
        QNN_STEP("vpmaddwd", "zmm27", "c11")
        : QNN_ZMM_OUTPUTS
        : [a] "v"(a), [b] "v"(b)
        : "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",
          "xmm23", "xmm24", "xmm25", "xmm26", "xmm27");
  double elapsed = seconds() - start;
  return 2.0 * 32 * 12 * kIterations / elapsed / 1e9;
}

__attribute__((target("avx2"))) double maddwdYmm() {
  __m256i a = _mm256_set1_epi16(3), b = _mm256_set1_epi16(5);
  __m256i c0 = _mm256_setzero_si256(), c1 = c0, c2 = c0, c3 = c0, c4 = c0,
          c5 = c0;
  double start = seconds();
  for (long i = 0; i < kIterations; ++i)
    __asm__ volatile(
        QNN_STEP("vpmaddwd", "ymm10", "c0") QNN_STEP("vpmaddwd", "ymm11", "c1")
        QNN_STEP("vpmaddwd", "ymm12", "c2") QNN_STEP("vpmaddwd", "ymm13", "c3")
        QNN_STEP("vpmaddwd", "ymm14", "c4") QNN_STEP("vpmaddwd", "ymm15", "c5")
        : [c0] "+x"(c0), [c1] "+x"(c1), [c2] "+x"(c2), [c3] "+x"(c3),
          [c4] "+x"(c4), [c5] "+x"(c5)
        : [a] "x"(a), [b] "x"(b)
        : "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
  double elapsed = seconds() - start;
  return 2.0 * 16 * 6 * kIterations / elapsed / 1e9;
}

#define QNN_DP(acc) "vpdpbusd %[a], %[b], %[" acc "]\n\t"

__attribute__((target("avx512vnni,avx512bw"))) double dpbusdZmm() {
  __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(5);
  QNN_ZMM_ACCUMULATORS;
  double start = seconds();
  for (long i = 0; i < kIterations; ++i)
    __asm__ volatile(QNN_DP("c0") QNN_DP("c1") QNN_DP("c2") QNN_DP("c3")
                         QNN_DP("c4") QNN_DP("c5") QNN_DP("c6") QNN_DP("c7")
                             QNN_DP("c8") QNN_DP("c9") QNN_DP("c10")
                                 QNN_DP("c11")
                     : QNN_ZMM_OUTPUTS
                     : [a] "v"(a), [b] "v"(b));
  double elapsed = seconds() - start;
  return 2.0 * 64 * 12 * kIterations / elapsed / 1e9;
}

// vpdpbusd zmm beside the three statements x28, x29 and x30 per twelve
// (results in zmm28-30; operands the two inputs a and b, the float vector
// f, the 192-byte buffer p): whether they take slots of the pipes
// vpdpbusd uses (the vpdpbusd GOPS drop below the peak; one slot each:
// 75%) or issue beside it (the peak). Measured on Zen 4: every multiply
// takes a slot (vpmuldq, vpmulld, vpmaddwd, vpmulhrsw, vmulps, the FMAs;
// 375 of 469 GOPS), and so does vpaddsw; vpermt2d about half of one
// (417); shifts, vpshufd, vpermd, blends, packs, vpaddd, vpaddq, the
// int/float conversions, register moves and broadcast loads none; zmm
// stores of fresh results none at one per twelve, about one each at
// three per twelve (350-363).
#define QNN_DP_WITH(function, x28, x29, x30)                                   \
  __attribute__((target("avx512vnni,avx512bw"))) double function() {           \
    __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(5);                  \
    __m512 f = _mm512_set1_ps(1.5f);                                           \
    alignas(64) static char buffer[192];                                       \
    char *p = buffer;                                                          \
    QNN_ZMM_ACCUMULATORS;                                                      \
    double start = seconds();                                                  \
    for (long i = 0; i < kIterations; ++i)                                     \
      __asm__ volatile(QNN_DP("c0") QNN_DP("c1") QNN_DP("c2") QNN_DP("c3")     \
                           x28 QNN_DP("c4") QNN_DP("c5") QNN_DP("c6")          \
                               QNN_DP("c7") x29 QNN_DP("c8") QNN_DP("c9")      \
                                   QNN_DP("c10") QNN_DP("c11") x30             \
                       : QNN_ZMM_OUTPUTS                                       \
                       : [a] "v"(a), [b] "v"(b), [f] "v"(f), [p] "r"(p)        \
                       : "xmm28", "xmm29", "xmm30", "memory");                 \
    double elapsed = seconds() - start;                                        \
    return 2.0 * 64 * 12 * kIterations / elapsed / 1e9;                        \
  }
// `insn` on the two integer inputs, three per twelve.
#define QNN_DP_BESIDE(function, insn)                                          \
  QNN_DP_WITH(function, insn " %[a], %[b], %%zmm28\n\t",                      \
              insn " %[a], %[b], %%zmm29\n\t",                                \
              insn " %[a], %[b], %%zmm30\n\t")

// The ceiling of a K = 32 pointwise layer (see the top).
QNN_DP_BESIDE(dpbusdMuldqZmm, "vpmuldq")
// The offset form's unsigned multiply (ConvKernelEpilogue.cpp, OffsetProduct),
// and IFMA's high-half multiply-add (AVX512-IFMA: Zen 4 and later, Ice Lake and
// later), which would add the product's high half to a register.
QNN_DP_BESIDE(dpbusdMuludqZmm, "vpmuludq")
QNN_DP_BESIDE(dpbusdMadd52huqZmm, "vpmadd52huq")
QNN_DP_BESIDE(dpbusdPaddswZmm, "vpaddsw")
QNN_DP_BESIDE(dpbusdPermt2dZmm, "vpermt2d")
QNN_DP_BESIDE(dpbusdPaddqZmm, "vpaddq")
QNN_DP_BESIDE(dpbusdPackssdwZmm, "vpackssdw")
QNN_DP_BESIDE(dpbusdPmulldZmm, "vpmulld")
// The float route of a requantize: one vmulps per 16 outputs, and the
// conversions before and after it.
QNN_DP_WITH(dpbusdMulpsZmm, "vmulps %[f], %[f], %%zmm28\n\t",
            "vmulps %[f], %[f], %%zmm29\n\t",
            "vmulps %[f], %[f], %%zmm30\n\t")
QNN_DP_WITH(dpbusdCvtdq2psZmm, "vcvtdq2ps %[a], %%zmm28\n\t",
            "vcvtdq2ps %[a], %%zmm29\n\t", "vcvtdq2ps %[a], %%zmm30\n\t")
QNN_DP_WITH(dpbusdCvtps2dqZmm, "vcvtps2dq %[f], %%zmm28\n\t",
            "vcvtps2dq %[f], %%zmm29\n\t", "vcvtps2dq %[f], %%zmm30\n\t")
// 64-byte stores of a result just computed (a vpaddq, which alone issues
// beside vpdpbusd), as a kernel's epilogue stores its packed bytes, one
// and three per twelve vpdpbusd.
#define QNN_ADD_STORE(reg, offset)                                             \
  "vpaddq %[a], %[b], %%" reg "\n\tvmovdqu64 %%" reg ", " offset "(%[p])\n\t"
QNN_DP_WITH(dpbusdStore1Zmm, QNN_ADD_STORE("zmm28", "0"), "", "")
QNN_DP_WITH(dpbusdStore3Zmm, QNN_ADD_STORE("zmm28", "0"),
            QNN_ADD_STORE("zmm29", "64"), QNN_ADD_STORE("zmm30", "128"))

// vpdpbusd zmm with one more instruction after each (twelve per twelve),
// `insn` writing zmm28, zmm29 or zmm30 (or mask register k1) from the two
// inputs: what a requantize's additions, shifts and compares cost beside
// vpdpbusd where they are as many. Zen 5: additions and shifts none
// (1045-1060 GOPS, beside a peak of 1008-1094 in the same runs), a compare
// into a mask register about 0.3 cycles each where a vpdpbusd takes 0.5
// (646-679 GOPS).
// `function`: the GOPS of the twelve vpdpbusd of `text` (the assembly of
// one iteration, on the two inputs a and b and the accumulators),
// clobbering the registers listed after it.
#define QNN_DP_TIMED(function, text, ...)                                      \
  __attribute__((target("avx512vnni,avx512bw"))) double function() {           \
    __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(5);                  \
    QNN_ZMM_ACCUMULATORS;                                                      \
    double start = seconds();                                                  \
    for (long i = 0; i < kIterations; ++i)                                     \
      __asm__ volatile(text:QNN_ZMM_OUTPUTS                                    \
                       : [a] "v"(a), [b] "v"(b)                                \
                       : __VA_ARGS__);                                         \
    double elapsed = seconds() - start;                                        \
    return 2.0 * 64 * 12 * kIterations / elapsed / 1e9;                        \
  }
#define QNN_DP_EACH(function, insn)                                            \
  QNN_DP_TIMED(function,                                                       \
               QNN_DP("c0") insn("28") QNN_DP("c1") insn("29") QNN_DP("c2")    \
                   insn("30") QNN_DP("c3") insn("28") QNN_DP("c4") insn("29")  \
                       QNN_DP("c5") insn("30") QNN_DP("c6") insn("28")         \
                           QNN_DP("c7") insn("29") QNN_DP("c8") insn("30")     \
                               QNN_DP("c9") insn("28") QNN_DP("c10")           \
                                   insn("29") QNN_DP("c11") insn("30"),        \
               "xmm28", "xmm29", "xmm30", "k1")
#define QNN_EACH_PADDQ(r) "vpaddq %[a], %[b], %%zmm" r "\n\t"
#define QNN_EACH_PSRAQ(r) "vpsraq $3, %[a], %%zmm" r "\n\t"
#define QNN_EACH_PCMPGTQ(r) "vpcmpgtq %[a], %[b], %%k1\n\t"
QNN_DP_EACH(dpbusdEachPaddqZmm, QNN_EACH_PADDQ)
QNN_DP_EACH(dpbusdEachPsraqZmm, QNN_EACH_PSRAQ)
QNN_DP_EACH(dpbusdEachPcmpgtqZmm, QNN_EACH_PCMPGTQ)

// vpdpbusd zmm with two more instructions after each (24 per twelve),
// `insn` writing zmm25-30 from the two inputs: which issue limit a kernel
// whose epilogue has many instructions per vpdpbusd meets. Zen 5, beside
// a peak of 1066-1107: vpaddd 731-769 GOPS (four vector pipes: 36
// instructions in 9 cycles where the 12 vpdpbusd alone take 6), vpsraq
// 554-577 (shifts: two per cycle), vpmovzxbd 499-508 (shuffles, packs,
// permutes and inserts: two per cycle, on a pipe vpdpbusd also uses),
// register moves none (eliminated at rename; copies among registers in
// use cost about a third of an instruction each in other runs). The
// depthwise and small-K pointwise kernels meet the first two limits.
#define QNN_DP_TWICE(function, insn)                                           \
  QNN_DP_TIMED(                                                                \
      function,                                                                \
      QNN_DP("c0") insn("25") insn("26") QNN_DP("c1") insn("27") insn("28")    \
          QNN_DP("c2") insn("29") insn("30") QNN_DP("c3") insn("25")           \
              insn("26") QNN_DP("c4") insn("27") insn("28") QNN_DP("c5")       \
                  insn("29") insn("30") QNN_DP("c6") insn("25") insn("26")     \
                      QNN_DP("c7") insn("27") insn("28") QNN_DP("c8")          \
                          insn("29") insn("30") QNN_DP("c9") insn("25")        \
                              insn("26") QNN_DP("c10") insn("27") insn("28")   \
                                  QNN_DP("c11") insn("29") insn("30"),         \
      "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30")
#define QNN_TWICE_PADDD(r) "vpaddd %[a], %[b], %%zmm" r "\n\t"
#define QNN_TWICE_PMOVZXBD(r) "vpmovzxbd %x[a], %%zmm" r "\n\t"
#define QNN_TWICE_MOVDQA(r) "vmovdqa64 %[a], %%zmm" r "\n\t"
QNN_DP_TWICE(dpbusdTwicePadddZmm, QNN_TWICE_PADDD)
QNN_DP_TWICE(dpbusdTwicePsraqZmm, QNN_EACH_PSRAQ)
QNN_DP_TWICE(dpbusdTwicePmovzxbdZmm, QNN_TWICE_PMOVZXBD)
QNN_DP_TWICE(dpbusdTwiceMovdqaZmm, QNN_TWICE_MOVDQA)

// vpdpbusd zmm whose every operand is loaded just before it: a dword
// broadcast from memory (the GEMM kernels' activations), or two dword
// broadcasts into the halves joined by a vinserti64x4 (one pixel's bytes
// in lanes 0-7 and the next pixel's in lanes 8-15: the pixel-pair kernels
// of at most 8 output channels, KernelBuilder::pairsPixels). Zen 4: the
// broadcasts issue beside vpdpbusd (its peak), the paired operands cost
// about a quarter of it (340 of 469 GOPS), where a vpermd per operand
// costs a third (about 300 GOPS in a C loop).
#define QNN_BCAST_STEP(reg, offset, acc)                                       \
  "vpbroadcastd " offset "(%[p]), %%" reg "\n\t"                               \
  "vpdpbusd %%" reg ", %[b], %[" acc "]\n\t"
#define QNN_PAIR_STEP(ymm, zmm, offset, acc)                                   \
  "vpbroadcastd " offset "(%[p]), %%" ymm "\n\t"                               \
  "vpbroadcastd 8+" offset "(%[p]), %%ymm28\n\t"                               \
  "vinserti64x4 $1, %%ymm28, %%" zmm ", %%" zmm "\n\t"                         \
  "vpdpbusd %%" zmm ", %[b], %[" acc "]\n\t"
#define QNN_OPERAND_PEAK(function, STEP4)                                      \
  __attribute__((target("avx512vnni,avx512bw"))) double function() {           \
    __m512i b = _mm512_set1_epi8(5);                                           \
    alignas(64) static char buffer[256];                                       \
    char *p = buffer;                                                          \
    QNN_ZMM_ACCUMULATORS;                                                      \
    double start = seconds();                                                  \
    for (long i = 0; i < kIterations; ++i)                                     \
      __asm__ volatile(                                                        \
          STEP4("16", "17", "18", "19", "0", "c0", "c1", "c2", "c3") STEP4(    \
              "20", "21", "22", "23", "64", "c4", "c5", "c6", "c7")            \
              STEP4("24", "25", "26", "27", "128", "c8", "c9", "c10", "c11")   \
          : QNN_ZMM_OUTPUTS                                                    \
          : [b] "v"(b), [p] "r"(p)                                             \
          : "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22",     \
            "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "memory");   \
    double elapsed = seconds() - start;                                        \
    return 2.0 * 64 * 12 * kIterations / elapsed / 1e9;                        \
  }
#define QNN_BCAST4(r0, r1, r2, r3, base, a0, a1, a2, a3)                       \
  QNN_BCAST_STEP("zmm" r0, base, a0)                                           \
  QNN_BCAST_STEP("zmm" r1, "4+" base, a1)                                      \
      QNN_BCAST_STEP("zmm" r2, "16+" base, a2)                                 \
          QNN_BCAST_STEP("zmm" r3, "20+" base, a3)
#define QNN_PAIR4(r0, r1, r2, r3, base, a0, a1, a2, a3)                        \
  QNN_PAIR_STEP("ymm" r0, "zmm" r0, base, a0)                                  \
  QNN_PAIR_STEP("ymm" r1, "zmm" r1, "4+" base, a1)                             \
  QNN_PAIR_STEP("ymm" r2, "zmm" r2, "16+" base, a2)                            \
  QNN_PAIR_STEP("ymm" r3, "zmm" r3, "20+" base, a3)
QNN_OPERAND_PEAK(dpbusdBroadcastOperandZmm, QNN_BCAST4)
QNN_OPERAND_PEAK(dpbusdPairOperandZmm, QNN_PAIR4)

// The instruction mix of a pointwise layer with K = 32 (MobileNet's pw1)
// under the floor-affine requantize, without its loads: 24 vpdpbusd (12
// accumulators, two K steps each: 8 per 16 outputs) beside the epilogue of
// 48 outputs, three vcvtdq2ps, vfmadd213ps {rd-sae} and vcvtps2dq {rd-sae}
// chains, and the packs and permute of their bytes (two vpackssdw, a
// vpackuswb and a vpermd per 64 outputs: three here). The vpdpbusd GOPS of
// this loop are the layer's ceiling on the machine: one multiply-pipe
// instruction per 8 vpdpbusd, 8/9 of the peak if each took one slot. Zen 5
// (twenty-ninth session): 84-88% of the peak in the same run; the FMAs
// cost about 0.55 cycles each, the conversions, packs and permute nothing
// measurable (the generated pw1 loop, reassembled and run on L1-resident
// data: 52.5 cycles per 96 vpdpbusd without its epilogue, 59.3 with it,
// 54 without only its FMAs).
__attribute__((target("avx512vnni,avx512bw"))) double dpbusdPointwiseK32Zmm() {
  __m512i a = _mm512_set1_epi8(3), b = _mm512_set1_epi8(5);
  __m512 f = _mm512_set1_ps(1.0f / 1024);
  QNN_ZMM_ACCUMULATORS;
#define QNN_K32_EPILOGUE(x, y)                                                 \
  "vcvtdq2ps %[a], %%zmm" x "\n\t"                                             \
  "vfmadd213ps %{rd-sae%}, %[f], %[f], %%zmm" x "\n\t"                         \
  "vcvtps2dq %{rd-sae%}, %%zmm" x ", %%zmm" y "\n\t"
#define QNN_K32_PACKS                                                          \
  "vpackssdw %%zmm27, %%zmm25, %%zmm30\n\t"                                    \
  "vpackuswb %%zmm30, %%zmm29, %%zmm30\n\t"                                    \
  "vpermd %%zmm30, %[a], %%zmm30\n\t"
#define QNN_DP_0_3 QNN_DP("c0") QNN_DP("c1") QNN_DP("c2") QNN_DP("c3")
#define QNN_DP_4_7 QNN_DP("c4") QNN_DP("c5") QNN_DP("c6") QNN_DP("c7")
#define QNN_DP_8_11 QNN_DP("c8") QNN_DP("c9") QNN_DP("c10") QNN_DP("c11")
  double start = seconds();
  for (long i = 0; i < kIterations; ++i)
    __asm__ volatile(QNN_DP_0_3 QNN_DP_4_7 QNN_K32_EPILOGUE("24", "25")
                         QNN_DP_8_11 QNN_DP_0_3 QNN_K32_EPILOGUE("26", "27")
                             QNN_DP_4_7 QNN_DP_8_11 QNN_K32_EPILOGUE("28", "29")
                     QNN_K32_PACKS:QNN_ZMM_OUTPUTS
                     : [a] "v"(a), [b] "v"(b), [f] "v"(f)
                     : "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29",
                       "xmm30");
#undef QNN_DP_0_3
#undef QNN_DP_4_7
#undef QNN_DP_8_11
#undef QNN_K32_PACKS
#undef QNN_K32_EPILOGUE
  double elapsed = seconds() - start;
  return 2.0 * 64 * 24 * kIterations / elapsed / 1e9;
}

void report(const char *name, double (*measure)()) {
  double best = 0;
  for (int r = 0; r < 3; ++r)
    best = std::max(best, measure());
  std::printf("%-34s %7.0f GOPS per core\n", name, best);
}

} // namespace

int main() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512vnni") &&
      __builtin_cpu_supports("avx512bw")) {
    report("vpdpbusd zmm", dpbusdZmm);
    report("vpdpbusd zmm + vpmuldq 4:1", dpbusdMuldqZmm);
    report("vpdpbusd zmm + vpmuludq 4:1", dpbusdMuludqZmm);
    if (__builtin_cpu_supports("avx512ifma"))
      report("vpdpbusd zmm + vpmadd52huq 4:1", dpbusdMadd52huqZmm);
    report("vpdpbusd zmm + vpaddsw 4:1", dpbusdPaddswZmm);
    report("vpdpbusd zmm + vpermt2d 4:1", dpbusdPermt2dZmm);
    report("vpdpbusd zmm + vpaddq 4:1", dpbusdPaddqZmm);
    report("vpdpbusd zmm + vpackssdw 4:1", dpbusdPackssdwZmm);
    report("vpdpbusd zmm + vpmulld 4:1", dpbusdPmulldZmm);
    report("vpdpbusd zmm + vmulps 4:1", dpbusdMulpsZmm);
    report("vpdpbusd zmm + vcvtdq2ps 4:1", dpbusdCvtdq2psZmm);
    report("vpdpbusd zmm + vcvtps2dq 4:1", dpbusdCvtps2dqZmm);
    report("vpdpbusd zmm + zmm store 12:1", dpbusdStore1Zmm);
    report("vpdpbusd zmm + zmm store 4:1", dpbusdStore3Zmm);
    report("vpdpbusd zmm + vpaddq 1:1", dpbusdEachPaddqZmm);
    report("vpdpbusd zmm + vpsraq 1:1", dpbusdEachPsraqZmm);
    report("vpdpbusd zmm + vpcmpgtq to k 1:1", dpbusdEachPcmpgtqZmm);
    report("vpdpbusd zmm + vpaddd 1:2", dpbusdTwicePadddZmm);
    report("vpdpbusd zmm + vpsraq 1:2", dpbusdTwicePsraqZmm);
    report("vpdpbusd zmm + vpmovzxbd 1:2", dpbusdTwicePmovzxbdZmm);
    report("vpdpbusd zmm + vmovdqa64 1:2", dpbusdTwiceMovdqaZmm);
    report("vpdpbusd zmm, broadcast operands", dpbusdBroadcastOperandZmm);
    report("vpdpbusd zmm, K = 32 pointwise mix", dpbusdPointwiseK32Zmm);
    report("vpdpbusd zmm, paired operands", dpbusdPairOperandZmm);
  }
  if (__builtin_cpu_supports("avx512bw"))
    report("vpmaddwd + vpaddd zmm", maddwdZmm);
  if (__builtin_cpu_supports("avx2"))
    report("vpmaddwd + vpaddd ymm", maddwdYmm);
  return 0;
}
