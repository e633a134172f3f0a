# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "QNN"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.qnn_obj_root, "test")
config.excludes = ["Inputs", "lib", "lit.site.cfg.py.in", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%qnn_src_root", config.qnn_src_root))
config.substitutions.append(
    ("%cmpout", "python3 " + os.path.join(config.qnn_src_root, "test", "lib", "cmpout.py")))
config.substitutions.append(
    ("%refeq", "python3 " + os.path.join(config.qnn_src_root, "test", "lib", "refeq.py")))
config.substitutions.append(
    ("%mkbin", "python3 " + os.path.join(config.qnn_src_root, "test", "lib", "mkbin.py")))
# Public models live beside the checkout (../shared/models); tests that read
# them are gated on the 'shared-models' feature.
shared_models = os.path.join(os.path.dirname(config.qnn_src_root), "shared",
                             "models")
config.substitutions.append(("%shared_models", shared_models))
if os.path.isdir(shared_models):
    config.available_features.add("shared-models")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.qnn_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.qnn_tools_dir, config.llvm_tools_dir]
tools = ["qnn-opt", "qnn-run", "qnn-unittests", "qnn-translate", "qnn-tflite-gen", "qnn-compile",
         "qnn-jit"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Execution tests: the JIT runner and its support libraries.
config.substitutions.append(
    ("%mlir_c_runner_utils",
     os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so")))
config.substitutions.append(
    ("%mlir_runner_utils",
     os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so")))
# LLVM's OpenMP runtime, for mlir-runner on code lowered with threads != 1.
config.substitutions.append(
    ("%libomp", os.path.join(config.llvm_lib_dir, "libomp.so")))
llvm_config.add_tool_substitutions(["mlir-runner"], [config.llvm_tools_dir])
# Linking qnn-compile objects: the C runner utilities (memrefCopy) and,
# for code compiled with threads != 1 (the default), LLVM's libomp.
config.substitutions.append(
    ("%link_runner_utils",
     "-L{0} -lmlir_c_runner_utils -lomp -Wl,-rpath,{0} -lm".format(config.llvm_lib_dir)))
# CPU features that gate the target-specific execution tests.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = set()
        for line in cpuinfo:
            if line.startswith("flags"):
                cpu_flags.update(line.split(":", 1)[1].split())
                break
except OSError:
    cpu_flags = set()
for flag, feature in [("avx512_vnni", "avx512vnni"), ("avx512bw", "avx512bw"),
                      ("avx512vbmi", "avx512vbmi"), ("avx2", "avx2"),
                      ("amx_tile", "amx")]:
    if flag in cpu_flags:
        config.available_features.add(feature)

# Sanitizer builds (-DQNN_SANITIZE=...): every report fails the test; tests
# that cannot run instrumented say `UNSUPPORTED: sanitize`.
if getattr(config, "qnn_sanitize", ""):
    config.available_features.add("sanitize")
    # allow_user_poisoning=0: our instrumented code inlines LLVM's
    # BumpPtrAllocator, which poisons fresh slabs that the uninstrumented
    # libMLIR.so then fills without unpoisoning (a false use-after-poison).
    config.environment["ASAN_OPTIONS"] = \
        "detect_leaks=1:allow_user_poisoning=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

# The embedding example (examples/embedding) builds against this build's
# installation (cmake --install into a temporary prefix). Not in sanitizer
# builds: their libraries need the sanitizer runtimes at link time.
import shutil
config.substitutions.append(("%qnn_obj_root", config.qnn_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cxx", config.cxx_compiler))
if not getattr(config, "qnn_sanitize", "") and shutil.which("ninja"):
    config.available_features.add("embedding")

# The ONNX importer (built with libonnx-dev) and a Python with Debian's
# python3-onnx and python3-numpy to write the test models.
import subprocess
if config.qnn_have_onnx in ("ON", "1", "TRUE"):
    config.available_features.add("onnx-import")
    for candidate in ["/usr/bin/python3", shutil.which("python3")]:
        if candidate and subprocess.run(
                [candidate, "-c", "import onnx, numpy"],
                capture_output=True).returncode == 0:
            config.available_features.add("onnx")
            config.substitutions.append(("%onnx_python", candidate))
            break

# The benchmark binary (built when Google Benchmark is installed).
if os.path.exists(os.path.join(config.qnn_tools_dir, "qnn-bench-peers")):
    config.available_features.add("bench")
    llvm_config.add_tool_substitutions(["qnn-bench-peers"], [config.qnn_tools_dir])

# libFuzzer targets (clang sanitizer builds): replay the regression inputs.
fuzz_tools = ["qnn-fuzz-tflite-import", "qnn-fuzz-pipeline", "qnn-fuzz-mlir"]
if all(os.path.exists(os.path.join(config.qnn_tools_dir, t)) for t in fuzz_tools):
    config.available_features.add("fuzz")
    llvm_config.add_tool_substitutions(fuzz_tools, [config.qnn_tools_dir])
