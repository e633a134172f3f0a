//===- Passes.td - npu passes ----------------------------------*- tablegen -*-===//

#ifndef NPU_PASSES_TD
#define NPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def NPUFuse : Pass<"npu-fuse", "func::FuncOp"> {
  let summary = "Fuse qnn operator chains into npu operators";
  let description = [{
    Rewrites (greedily, one pattern per form):
    - `[tensor.pad] -> qnn.conv2d -> [tosa.add bias] -> qnn.requantize`
      (8-bit result, or i32 result followed by `tosa.clamp` and `tosa.cast`
      to 8 bits) into `npu.conv2d`; NCHW programs get `tosa.transpose` at
      the boundary and kernels are transposed to OHWI (constants at compile
      time, other values with a `tosa.transpose`).
    - the same chain around `qnn.dense` into `npu.fully_connected`;
    - `tosa.cast (8 -> i32) -> qnn.avg_pool2d -> tosa.cast (i32 -> 8)` into
      `npu.avg_pool2d`, `qnn.max_pool2d` into `npu.max_pool2d`, `qnn.add`
      into `npu.add` (a lower-rank operand gets leading unit dimensions);
    - `tosa.clamp`, `qnn.leaky_relu`, `qnn.hardswish`/`sigmoid`/`tanh` after
      an npu operator into its fused activation;
    - transposes that cancel, and a collapse of a transpose that only moves
      unit dimensions, are removed.
    A chain that looks fusable but is not gets a remark saying why (unless
    `remarks=false`, as in the CPU pipeline).
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"true",
           "Emit a remark for each chain that looks fusable but is not">
  ];
  let dependentDialects = ["::mlir::npu::NPUDialect",
                           "::mlir::tosa::TosaDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def NPUBindParams : Pass<"npu-bind-params", "ModuleOp"> {
  let summary = "Bind function arguments to constants read from a file";
  let description = [{
    Replaces the arguments of the function `func` (by default `main`)
    listed by `args` (argument indices; by default every argument after the
    first) with `arith.constant`s read from `file`: the raw little-endian
    row-major bytes of each bound argument's tensor type, concatenated in
    argument order with no header or padding (the format of `qnn-run`'s
    inputs). The arguments are removed from the function signature, so the
    weights and biases become constants and the constant-only rewrites
    (kernel transposes at compile time) apply.
  }];
  let options = [
    Option<"file", "file", "std::string", "", "file of raw parameter bytes">,
    Option<"funcName", "func", "std::string", "\"main\"",
           "function whose arguments are bound">,
    ListOption<"args", "args", "unsigned",
               "argument indices to bind (default: all but the first)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def NPUPartition : Pass<"npu-partition", "ModuleOp"> {
  let summary = "Outline maximal NPU-supported regions into npu functions";
  let description = [{
    Checks every operation of each function against the NPU support table,
    a list of named constraints (an operation the NPU does not support
    stays on the host with the first constraint it fails):
    - `npu-op`: the operation is a fused npu operator (run `--qnn-to-npu`
      first); constants are not partitioned, they are copied to where they
      are used.
    - `dtype`: input, weight and result are all `i8` or all `ui8`.
    - `batch`: batch size 1.
    - `constant-weights`: weights and biases are constants (the NPU loads
      them at compile time; see `--npu-bind-params`).
    - `kernel-size`: kernel height and width at most `max-kernel`.
    - `stride`: strides at most `max-stride`.
    - `dilation`: dilations 1.
    - `per-channel`: per-channel weight scales only when `per-channel=true`.
    - `add-broadcast`: `npu.add` operands have the result's shape.
    Connected supported operations are grouped into maximal regions that
    can be outlined without creating a cycle (a region never reaches itself
    through a host operation); each region becomes a private `func.func`
    tagged with the unit attribute `npu.target`, called from the host
    function with `func.call` (constants it uses are copied into it).
    `report=true` emits a remark on every host operation naming the failed
    constraint, and on each function a summary remark with the NPU/host
    operation counts (constants and `func.return` are not counted).
    `dot-file=PATH` writes a Graphviz DOT view of the partition, NPU
    regions as filled clusters.
  }];
  let options = [
    Option<"report", "report", "bool", "false",
           "remark on every host operation and summarise the partition">,
    Option<"dotFile", "dot-file", "std::string", "",
           "write a Graphviz DOT file of the partition">,
    Option<"maxKernel", "max-kernel", "int64_t", "8",
           "largest kernel height/width the NPU supports">,
    Option<"maxStride", "max-stride", "int64_t", "2",
           "largest stride the NPU supports">,
    Option<"perChannel", "per-channel", "bool", "true",
           "whether the NPU supports per-channel weight scales">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // NPU_PASSES_TD
