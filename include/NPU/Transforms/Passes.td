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
      into `npu.add`;
    - `tosa.clamp`, `qnn.leaky_relu`, `qnn.hardswish`/`sigmoid`/`tanh` after
      an npu operator into its fused activation;
    - transposes that cancel, and a collapse of a transpose that only moves
      unit dimensions, are removed.
    A chain that looks fusable but is not gets a remark saying why.
  }];
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
    Checks every operation of each function against the NPU support table
    (named constraints, each with a user-facing message), groups connected
    supported operations into maximal regions that can be outlined without
    creating a cycle, outlines each region into a private `func.func`
    tagged `npu.region`, and calls it from the host function.
    `report=true` emits a remark per host operation naming the failed
    constraint and a summary remark with NPU/host operation counts;
    `dot=FILE` writes a Graphviz view of the partition (NPU regions
    coloured).
  }];
  let options = [
    Option<"report", "report", "bool", "false",
           "remark on every host operation and summarise the partition">,
    Option<"dotFile", "dot", "std::string", "",
           "write a Graphviz DOT file of the partition">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // NPU_PASSES_TD
