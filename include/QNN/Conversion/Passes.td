//===- Passes.td - qnn conversion passes --------------------*- tablegen -*-===//

#ifndef QNN_CONVERSION_PASSES_TD
#define QNN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertQNNToLinalg : Pass<"convert-qnn-to-linalg", "ModuleOp"> {
  let summary = "Lower qnn and npu operators to exact integer linalg/arith "
                "code and kernel calls";
  let description = [{
    Rewrites every qnn operator into `linalg.generic`, `tensor` and `arith`
    operations that compute exactly the integers of `QNN/Utils/QuantMath.h`.
    Unsigned and signed (`ui8`, `si8`) storage types become signless
    integers of the same width; the lowering of each operator keeps the
    signedness it read from the original types (zero or sign extension,
    unsigned comparisons), and `tosa.cast`/`tosa.clamp` on unsigned tensors
    are lowered here for the same reason. Other operators are only retyped.

    Convolutions and dense layers become a plain 8-bit x 8-bit -> i32
    contraction of the input padded with its zero point; the zero-point
    terms are decomposed: `input_zp * sum(w)` and `K * input_zp * weight_zp`
    are folded into a per-channel constant when the weight is a constant,
    and the `weight_zp * window_sum(input)` term is emitted only when
    `weight_zp != 0`. Multipliers are computed at compile time with
    `math::quantizeMultiplier`.

    Convolutions (groups == 1 or depthwise, NHWC, static shapes) and dense
    layers with constant weights are lowered to calls of register-blocked
    vector kernels with weights pre-packed at compile time (bodies built by
    qnn-materialize-conv-kernels): `target=avx512-vnni` uses `vpdpbusd`,
    `target=int16` sign/zero-extends to i16 and uses AVX2 `vpmaddwd`,
    `target=int16-avx512bw` its 512-bit form, `target=generic` portable
    vector code; depthwise convolutions use one row-tile kernel (`vpdpbusd`
    per lane on avx512-vnni, a multiply and add of extended lanes
    elsewhere). Other convolutions (grouped, NCHW, runtime weights) take the
    `linalg.generic` path. `target=loops` keeps every op on that path.

    npu operators (from `--qnn-to-npu`) are lowered as they stand: an
    `npu.conv2d` or `npu.fully_connected` with constant weights (and bias)
    becomes one kernel call whose epilogue (a private scalar function named
    by the kernel's `qnn.kernel_epilogue`) adds the bias, requantizes,
    clamps or looks the activation up and stores 8-bit results: the kernel
    never stores i32 accumulators. Without a kernel (loops, runtime
    weights, grouped convolutions, channel multipliers) the accumulator is
    the qnn operator's and the epilogue one elementwise `linalg.generic`.
    `npu.add` and the pools become their qnn operator and the activation.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect", "::mlir::math::MathDialect",
    "::mlir::func::FuncDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::tosa::TosaDialect"
  ];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"generic\"",
           "Code generation target: generic, avx512-vnni, int16, int16-avx512bw "
           "or loops">,
    Option<"fuseDepthwise", "fuse-depthwise-epilogues", "bool",
           /*default=*/"true",
           "Let depthwise kernels apply the epilogues of npu.conv2d">,
    Option<"floorAffine", "floor-affine", "bool", /*default=*/"true",
           "On the AVX-512 targets, rescale accumulators in the floor-affine "
           "form where every channel has one (math::fitRescaleFloorAffine): "
           "one float32 fma rounded down per 16 lanes in the kernels, the "
           "same integers">,
    Option<"addAffine", "add-affine", "bool", /*default=*/"true",
           "ADD and SUB of 8-bit operands under TFLite's rules as one "
           "integer affine form, clamp((a * x + c * y + d) >> q), where one "
           "gives TFLite's result on every pair of operand values "
           "(math::fitAddAffine checks all 65536): two i32 multiplies per "
           "lane instead of three fixed-point rescales, on every target">,
    Option<"depthwiseSelfPaddingMinBytes",
           "depthwise-self-padding-min-bytes", "int64_t",
           /*default=*/"::mlir::qnn::kDefaultDepthwiseSelfPaddingMinBytes",
           "Depthwise kernels without vpdpbusd (every one on the int16, "
           "int16-avx512bw and generic targets; on avx512-vnni those whose "
           "w - wzp leave the signed byte range) whose input holds at least "
           "this many bytes (and whose channels are a multiple of 16) read "
           "it unpadded, handling the borders themselves; smaller inputs get "
           "a padded copy, which costs less than the border code's compile "
           "time. (The vpdpbusd kernel always pads by itself.)">
  ];
}

def MaterializeConvKernels : Pass<"qnn-materialize-conv-kernels", "ModuleOp"> {
  let summary = "Build the bodies of the convolution / dense vector kernels";
  let description = [{
    `convert-qnn-to-linalg` with a kernel target calls kernels that it only
    declares (attribute `qnn.conv_kernel`, see ConvKernels.cpp), so that
    bufferization and buffer deallocation never see the vector intrinsics.
    This pass, run on memrefs, gives each declaration its body: a tile of
    4 rows x up to 4 blocks of i32 accumulator vectors carried through the
    (kh, kw, c) reduction loops as scf.for iter_args, one
    `llvm.x86.avx512.vpdpbusd.512` (avx512-vnni), `llvm.x86.avx2.pmadd.wd`
    (int16), `llvm.x86.avx512.pmaddw.d.512` (int16-avx512bw) or generic
    multiply-add (generic, depthwise) per tile entry and step of K.
    Kernels with intrinsics get the `target_features` they need.
    With `parallel`, the loop over (batch, output row) is an scf.parallel,
    which the pipeline turns into an OpenMP worksharing loop: every row is
    computed by one thread with the same instructions, so the result does
    not depend on the number of threads.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect",
    "::mlir::func::FuncDialect", "::mlir::LLVM::LLVMDialect"
  ];
  let options = [
    Option<"emulateVNNI", "emulate-vnni", "bool", /*default=*/"false",
           "Compute each vpdpbusd with generic vector operations (exactly the "
           "same integers), to test the VNNI kernels on CPUs without "
           "AVX512-VNNI">,
    Option<"vbmi", "vbmi", "bool", /*default=*/"false",
           "The VNNI depthwise kernels may use AVX512-VBMI's two-source byte "
           "permute (vpermt2b) to slide their packed kernel rows down a band "
           "of output rows (for CPUs that have it: Ice Lake, Zen 4 and "
           "later; not Cascade Lake)">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Make each kernel's loop over (batch, output row) an scf.parallel "
           "(for convert-scf-to-openmp): rows are independent, so the result "
           "is the same for every thread count">,
    Option<"parallelMinWork", "parallel-min-work", "int64_t",
           /*default=*/"2097152",
           "Multiply-adds below which a kernel stays serial (waking a thread "
           "team costs microseconds)">
  ];
}

def VectorizeElementwise : Pass<"qnn-vectorize-elementwise", "ModuleOp"> {
  let summary = "Tile and vectorize elementwise linalg.generic ops";
  let description = [{
    Tiles every elementwise `linalg.generic` on tensors with static shapes
    (all loops parallel: requantize epilogues, bias additions, clamps,
    lookup-table activations, binary ops) along its innermost dimension by
    `width` lanes (the whole dimension when it is at most `width`, else the
    largest power of two >= 4 dividing it) and vectorizes each tile with the
    upstream linalg vectorizer; lookup tables become `vector.gather`. Fills
    are vectorized the same way. An op on whole tensors (identity maps, new
    outputs) whose innermost dimension gives tiles narrower than `width` (3
    input channels; a padded row of 900 bytes) runs over one flattened
    dimension, and a flat dimension that `width` does not divide is split
    after its last full tile (the rest is one more op). A generic with
    reduction loops whose output's innermost dimension is a parallel loop
    that every operand using it reads as its own innermost dimension
    (NHWC average and max pools, MEAN over H and W) gets that loop moved
    innermost and tiled the same way, every other loop by 1 (`scf.for`):
    each tile is one elementwise vector step that combines a vector of the
    input into the output's. Ops that do not qualify or that the
    vectorizer rejects are left alone.
    With `parallel`, the tile loops of ops of at least `parallel-min-elements`
    elements are an `scf.forall` (later an OpenMP worksharing loop): each
    tile writes its own elements, so threads do not change the result.
    With `even-odd-products`, every fixed-point rescale of the vectorized
    bodies, `trunci(shrsi(addi(muli(extsi(x), M), R), S))` from i32 lanes
    through i64 with splat constants, M within 32 signed bits and not a
    power of two, 0 < S < 64, is computed on `x` as it is: the vector's
    i64 view gives the products of its even lanes (each lane's low word,
    sign-extended) and of its odd lanes (the high words), and bits S..S+31
    of each sum are shifted back into their lane and blended (for S > 32,
    the high words blended, then shifted right by S - 32 as i32). The same
    integers; on x86 two `vpmuldq` and a blend instead of widening both
    halves of the vector and narrowing them back (little-endian lane
    order: x86 targets only).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::tensor::TensorDialect",
    "::mlir::linalg::LinalgDialect"
  ];
  let options = [
    Option<"width", "width", "int64_t", /*default=*/"16",
           "Maximal number of lanes of a tile">,
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Tile large ops with scf.forall instead of scf.for">,
    Option<"parallelMinElements", "parallel-min-elements", "int64_t",
           /*default=*/"16384",
           "Smallest op (in elements) worth running on several threads">,
    Option<"evenOddProducts", "even-odd-products", "bool",
           /*default=*/"false",
           "Rescale products in place (little-endian x86 targets): the high "
           "words of i64 products of sign-extended i32 lanes computed from "
           "the even and the odd lanes of the i32 vector, without widening it">
  ];
}

def CopiesToLinalg : Pass<"qnn-copies-to-linalg", "func::FuncOp"> {
  let summary = "Turn strided memref.copy into linalg.copy";
  let description = [{
    Rewrites `memref.copy` whose source or target has a non-identity layout
    (slices of padded or concatenated buffers) into `linalg.copy`, which
    convert-linalg-to-loops lowers to loops that LLVM optimizes; otherwise
    the copy becomes a call of the runtime's generic `memrefCopy`, which
    copies element by element. Contiguous copies stay `memref.copy`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def SimplifyIntRanges : Pass<"qnn-simplify-int-ranges", "ModuleOp"> {
  let summary = "Remove clamps and 8-bit round trips that value ranges make "
                "redundant";
  let description = [{
    Infers the range of integer values backwards from each candidate
    operation through the `InferIntRangeInterface` of the operations that
    define them (constants, extensions, shifts, products, clamps; block
    arguments are unbounded), memoized, without a dataflow solver, and
    rewrites:

    - `arith.maxsi` / `arith.minsi` / `arith.maxui` / `arith.minui` that
      always return their non-constant operand into that operand: a clamp
      that never clamps (the 32-bit saturation of a rescale whose input is
      a widened 8-bit value, or whose right shift is at least 32);
    - `arith.extsi(arith.trunci(v))` and `arith.extui(arith.trunci(v))`
      where v always fits the truncated type (signed or unsigned) into one
      conversion of v (`arith.trunci`, `arith.extsi` / `arith.extui`) or v
      itself: a requantized 8-bit value that the next layer's input
      widening sign-extends to 16 bits, once the two generics are fused.

    The arguments of a kernel epilogue function after the accumulator are
    bounded by the hull of their `qnn.argument_ranges` (the constants that
    layers sharing the kernel disagree on). Runs after
    `qnn-fuse-kernel-epilogues` (which fuses the next layer's input
    widening into an epilogue), so that the kernels' epilogues and the
    elementwise loops get the shorter forms: fewer vector instructions, and
    much less LLVM instruction selection time (each operation of a 16-lane
    epilogue costs LLVM's DAG combiner known-bits queries over its whole
    operand cone).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FuseKernelEpilogues : Pass<"qnn-fuse-kernel-epilogues", "ModuleOp"> {
  let summary = "Move the requantize epilogue of convolution kernels into them";
  let description = [{
    Runs on tensors after `linalg-fuse-elementwise-ops`. A GEMM-shaped
    convolution or dense kernel call (from `convert-qnn-to-linalg` with a
    kernel target) whose i32 result feeds only one all-parallel
    `linalg.generic` (bias add, requantize, clamp, narrowing, lookup-table
    activations: arith operations on the accumulator and constant
    per-channel vectors, and reads of constant 1-D tables) is
    replaced by a call of a new kernel that takes those constant vectors and
    stores the generic's 8-bit results. The generic's scalar body becomes a
    private function named by the kernel's `qnn.kernel_epilogue`
    attribute; `qnn-materialize-conv-kernels` applies it to the accumulator
    vectors in registers, so the i32 accumulators never go to memory.
    Kernels whose output is sliced (channel counts that are not a multiple
    of the vector width) and epilogues with other operations are left as
    they are. Tables are read with `vector.gather` in the kernel. Depthwise kernels (multiplier 1) are
    fused too unless `fuse-depthwise=false` (fused, MobileNet v1's dw layers
    run 4-13% faster on both the avx512-vnni and the int16 kernels, since
    the requantize works on 32-bit lanes after the 64-bit product).

    Layers with the same kernel whose epilogues compute the same operations
    share one fused kernel: a scalar constant on which they disagree (an
    output zero point, clamp bounds, a per-tensor multiplier or shift)
    becomes an argument of the epilogue function and, for the kernel, one
    more per-channel vector (a splat per layer); constants they agree on
    stay immediates. This keeps the number of kernels, and so compile time,
    down (MobileNet v2: 46 -> 38 kernel functions).
  }];
  let options = [
    Option<"fuseDepthwise", "fuse-depthwise", "bool", /*default=*/"true",
           "Also fuse the epilogues of depthwise kernels (multiplier 1)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect"
  ];
}

def ByteGlobals : Pass<"qnn-byte-globals", "ModuleOp"> {
  let summary = "Store constant memref globals as flat byte arrays";
  let description = [{
    Rewrites every constant `memref.global` with a dense initial value whose
    elements are wider than a byte, or whose rank is above 1, as a global of
    its raw little-endian bytes (`memref<B x i8>`, aligned to at least 64
    bytes), and each `memref.get_global` of it as a `memref.get_global` of
    the bytes and a `memref.view` with the original type. The stored bytes
    and every address computed from the view are the same; what changes is
    the global's LLVM type: one `[B x i8]` array instead of nested arrays of
    i16 or i32, which the MLIR translation converts row by row and LLVM's
    object writer emits one element at a time (for the int16 target's
    packed i16 weights of MobileNet v2, 3.5 million elements, about a sixth
    of the whole compile). Runs before `qnn-prepare-llvm-lowering`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def OrderConstantGlobals : Pass<"qnn-order-constant-globals", "ModuleOp"> {
  let summary = "Name and order bufferization's constant globals by first use";
  let description = [{
    One-shot bufferization turns each tensor constant into a private
    constant `memref.global` named `__constant_<shape>` (with a numeric
    suffix where the name is taken), one global per distinct value. With
    function boundaries it bufferizes the functions in an order that the
    MLIR 22 release takes from hash maps keyed by pointers (fixed upstream
    after the release), so the same module gave globals named and placed
    differently from run to run, and so different LLVM modules and objects.

    This pass renumbers those globals (the private constant globals whose
    names start with `__constant_`) in the order of their first use in the
    module, walking it in program order: the first user of a shape gets
    `__constant_<shape>`, the next ones `__constant_<shape>_1`, `_2`, ...
    Every symbol reference is updated, the globals are moved to the start
    of the module in that order, and those no operation references are
    erased (they are private). Other globals are left alone; a renamed
    global never takes a name that one of them holds. Nested symbol tables
    (a nested `builtin.module`) are neither searched nor renamed. Runs
    right after `one-shot-bufferize`.
  }];
}

def PlanBuffers : Pass<"qnn-plan-buffers", "func::FuncOp"> {
  let summary = "Place a function's temporary buffers in one reused workspace";
  let description = [{
    Memory planning after bufferization and buffer deallocation. Every
    statically shaped `memref.alloc` in the body of a single-block function
    whose buffer (and every view of it) is used only inside the function and
    freed by a `memref.dealloc` in that block becomes a `memref.view` at an
    offset of one workspace buffer, allocated once at the start of the
    function and freed before its return. Offsets come from the buffers'
    live ranges (from the allocation to the last operation of the block that
    uses the buffer or a view of it): buffers whose live ranges do not
    overlap share memory (first fit, 64-byte aligned). An inference thus
    makes one allocation instead of one per intermediate tensor, touches
    less memory, and allocator and page-fault costs no longer grow with the
    number of layers. Allocations that escape (returned, or aliased by an
    operation that is not a view) are left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

def NPUExpandToQNN : Pass<"npu-expand-to-qnn", "::mlir::func::FuncOp"> {
  let summary = "Rewrite npu operators into the equivalent qnn/tosa sequence";
  let description = [{
    Expands every fused npu operator back into the qnn operators that compute
    the same integers, so that programs produced by `--qnn-to-npu` can be
    compiled for the CPU with `convert-qnn-to-linalg`:
    - `npu.conv2d` becomes `qnn.conv2d` (NHWC, OHWI, the same window
      attributes), `tosa.add` of the bias reshaped to `[1, 1, 1, O]`,
      `qnn.requantize` to the 8-bit result with the per-channel input scales
      `double(input_scale) * double(weight_scale[o])` (axis 3), and the
      epilogue; `npu.fully_connected` likewise around `qnn.dense`.
    - `npu.add` becomes `qnn.add`, `npu.avg_pool2d`/`npu.max_pool2d` the qnn
      pooling ops (NHWC), each followed by the epilogue.
    - Epilogue: `none`/`relu`/`relu6`/`clip` become a `tosa.clamp` to
      `[act_min, act_max]` when that range is narrower than the storage
      range; `leaky_relu` and `lut` become one 256-entry lookup (clamp and
      activation folded into the table, computed at compile time with
      `QNN/Utils/QuantMath.h`) indexed by the low byte of the value.
  }];
  let dependentDialects = [
    "::mlir::qnn::QNNDialect", "::mlir::tosa::TosaDialect",
    "::mlir::tensor::TensorDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::arith::ArithDialect"
  ];
}

def PrepareLLVMLowering : Pass<"qnn-prepare-llvm-lowering", "ModuleOp"> {
  let summary = "Expand memref views and lower vector-to-vector, on the ops "
                "that need it";
  let description = [{
    The steps before `convert-to-llvm` that upstream runs as two greedy
    rewrites over the whole module (`expand-strided-metadata` and the first
    phase of `convert-vector-to-llvm`), applied to the operations that need
    them instead of to every operation of every kernel:
    - memref views that the LLVM conversion cannot lower (`memref.subview`,
      `memref.expand_shape`, `memref.collapse_shape`,
      `memref.extract_strided_metadata`, `memref.reinterpret_cast`,
      `memref.extract_aligned_pointer_as_index`, `memref.cast`) are expanded
      into `memref.reinterpret_cast` with explicit strides and offsets
      (`affine.apply` left for `lower-affine`);
    - vector operations get upstream's vector-to-vector lowering (transfers
      of rank 1 to loads and masked loads, strided slices to shuffles, masks
      materialized, n-D broadcasts, shape casts, contractions, transposes),
      applied to the vector operations only.
    - `memref.alloca_scope` ops (one per OpenMP loop body after
      `convert-scf-to-openmp`) get upstream's canonicalization of that op:
      inlined where they allocate nothing, allocations hoisted where legal
      (`convert-scf-to-cf` cannot split the blocks of a scope's region).
    Operations left dead are erased (template values a kernel cloned and
    did not use). Then every `vector.load`, `vector.store`,
    `vector.maskedload` and
    `vector.maskedstore` without an alignment gets its element type's
    preferred alignment (1, 2, 4 or 8 bytes): the same value the LLVM
    conversion would compute, without the `llvm::LLVMContext` it builds per
    operation to find it. With `convert-to-llvm` after `convert-scf-to-cf`
    this replaces `expand-strided-metadata` and `convert-vector-to-llvm`:
    the same IR, and for MobileNet v2 the steps from here to the LLVM
    dialect took 0.36 instead of 0.58 s.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def FoldLLVMDescriptors : Pass<"qnn-fold-llvm-descriptors", "ModuleOp"> {
  let summary = "Read memref descriptor fields from the values inserted "
                "into them (llvm.extractvalue of llvm.insertvalue)";
  let description = [{
    After `convert-to-llvm`, a function whose memref arguments are bare
    pointers (the kernels) builds one descriptor struct per argument with
    `llvm.insertvalue` and reads its aligned pointer back with an
    `llvm.extractvalue` at every use. Inside an `omp.parallel` region those
    reads made the OpenMP translation capture whole descriptors: the
    kernel's wrapper stored each into a stack slot and the outlined body
    loaded it back (MobileNet v2: about 600 bytes of machine code per
    kernel). This pass folds every `llvm.extractvalue` whose container is
    an `llvm.insertvalue` chain to the inserted value (upstream's folder of
    the op, applied to those ops only instead of a whole-module
    canonicalization), so that the region uses the pointer arguments, and
    erases the chains left unused. The translated module computes the same
    values; LLVM folds the same reads later anyway.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ProfileKernelCalls : Pass<"qnn-profile-kernel-calls", "ModuleOp"> {
  let summary = "Count the cycles and calls of every convolution kernel call";
  let description = [{
    On the LLVM dialect (the end of the CPU pipeline): every `llvm.call` of
    a convolution kernel (a function named `__qnn_kernel_...`) from a
    function that is not one is bracketed by two reads of the CPU's cycle
    counter (`llvm.readcyclecounter`: the time-stamp counter on x86), and
    the difference and 1 are added atomically to the call site's two
    counters in the external global `__qnn_profile_counters` (an array of
    two i64 per site, cycles then calls, zero when the code is loaded).
    The module attribute `qnn.profile_sites` names the kernel of each site,
    in the order of the sites (the program's order). `qnn-run --profile`
    and `CompiledModule::getProfile` read them back. Code that is not a
    kernel call (copies, pads, elementwise operators) is not timed: its
    time is what the run takes beyond the sites'. The symbol
    `__qnn_profile_counters` must be free.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // QNN_CONVERSION_PASSES_TD
