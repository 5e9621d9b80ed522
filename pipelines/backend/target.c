/* Target selection for ahead-of-time compilation: target names and CPU
 * names are checked here, before any of them reaches LLVM, whose fatal
 * errors abort the process and which only warns about unknown CPUs. */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include "pipelines/backend/target.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "llvm-c/Core.h"
#include "llvm-c/Target.h"
#include "llvm-c/TargetMachine.h"

/* Only these back ends are initialized: Kiln's CPU code generation and its
 * OpenMP runtime exist for x86_64 and aarch64 Linux. */
static void initTargets(void) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64Target();
  LLVMInitializeAArch64TargetMC();
  LLVMInitializeAArch64AsmPrinter();
}

void kilnTargetInitializeLLVM(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, initTargets);
}

/* CPU names accepted per architecture. LLVM knows more; these are the
 * common ones, and a name outside the list is rejected instead of being
 * silently ignored by LLVM ("not a recognized processor"). Each comes with
 * the vector features it implies, which become the target's features (LLVM
 * derives the rest from the name): the CPU schedules size their register tiles
 * from them (kiln-tile-and-vectorize's target-features option), so
 * `--cpu=skylake-avx512` from any host gets the tiles of an AVX-512
 * machine, as `--cpu=native` on one does, and the runtime refuses such a
 * library on a host without those features. */
typedef struct KnownCPU {
  const char *name, *features;
} KnownCPU;
static const char kAvx512[] = "+avx512f,+avx2,+fma";
static const char kAvx2[] = "+avx2,+fma";
static const KnownCPU kX86CPUs[] = {{"generic", ""},
                                    {"x86-64", ""},
                                    {"x86-64-v2", ""},
                                    {"x86-64-v3", kAvx2},
                                    {"x86-64-v4", kAvx512},
                                    {"nehalem", ""},
                                    {"westmere", ""},
                                    {"sandybridge", ""},
                                    {"ivybridge", ""},
                                    {"haswell", kAvx2},
                                    {"broadwell", kAvx2},
                                    {"skylake", kAvx2},
                                    {"skylake-avx512", kAvx512},
                                    {"cascadelake", kAvx512},
                                    {"cooperlake", kAvx512},
                                    {"icelake-client", kAvx512},
                                    {"icelake-server", kAvx512},
                                    {"tigerlake", kAvx512},
                                    {"alderlake", kAvx2},
                                    {"raptorlake", kAvx2},
                                    {"meteorlake", kAvx2},
                                    {"sapphirerapids", kAvx512},
                                    {"emeraldrapids", kAvx512},
                                    {"graniterapids", kAvx512},
                                    {"znver1", kAvx2},
                                    {"znver2", kAvx2},
                                    {"znver3", kAvx2},
                                    {"znver4", kAvx512},
                                    {"znver5", kAvx512},
                                    {"btver2", ""},
                                    {NULL, NULL}};
static const KnownCPU kAArch64CPUs[] = {
    {"generic", ""},     {"cortex-a53", ""},  {"cortex-a55", ""},
    {"cortex-a57", ""},  {"cortex-a72", ""},  {"cortex-a73", ""},
    {"cortex-a75", ""},  {"cortex-a76", ""},  {"cortex-a77", ""},
    {"cortex-a78", ""},  {"cortex-a510", ""}, {"cortex-a710", ""},
    {"cortex-x1", ""},   {"cortex-x2", ""},   {"neoverse-n1", ""},
    {"neoverse-n2", ""}, {"neoverse-v1", ""}, {"neoverse-v2", ""},
    {"apple-m1", ""},    {"apple-m2", ""},    {"apple-m3", ""},
    {"a64fx", ""},       {"ampere1", ""},     {"thunderx2t99", ""},
    {NULL, NULL}};

struct KilnTarget {
  char *triple, *cpu, *features;
  const char *gpuArch, *gpuFeatures; /* static strings; NULL for CPUs */
  int optLevel;
  bool hostArch;
  LLVMTargetRef llvmTarget;
};

void kilnCompileReport(MlirStringCallback cb, void *ud, const char *fmt, ...) {
  KilnStrBuf msg = {0};
  va_list ap;
  va_start(ap, fmt);
  kilnStrBufAppendv(&msg, fmt, ap);
  va_end(ap);
  cb(mlirStringRefCreate(msg.data, msg.len), ud);
  kilnStrBufDestroy(&msg);
}

/* The length of the triple's architecture component. */
static size_t archLength(const char *triple) { return strcspn(triple, "-"); }

static bool sameArch(const char *a, const char *b) {
  size_t n = archLength(a);
  return n == archLength(b) && !strncmp(a, b, n);
}

static bool archIs(const char *triple, const char *arch) {
  return archLength(triple) == strlen(arch) &&
         !strncmp(triple, arch, strlen(arch));
}

/* The entry of `list` named `name`, or NULL. */
static const KnownCPU *findCPU(const KnownCPU *list, const char *name) {
  for (; list->name; ++list)
    if (!strcmp(list->name, name))
      return list;
  return NULL;
}

/* Lists the CPU names for `list` after a message. */
static void appendList(KilnStrBuf *b, const KnownCPU *list) {
  for (int i = 0; list[i].name; ++i)
    kilnStrBufAppendf(b, "%s%s", i ? ", " : "", list[i].name);
}

/* Resolves the target name to a normalized triple (owned) and a default
 * CPU; NULL after reporting. */
static char *resolveTriple(const char *name, const char **defaultCPU,
                           MlirStringCallback cb, void *ud) {
  const char *raw = name;
  *defaultCPU = "generic";
  if (!name || !strcmp(name, "host")) {
    raw = NULL;
    *defaultCPU = NULL; /* the host's own */
  } else if (!strcmp(name, "x86-64-v3")) {
    raw = "x86_64-unknown-linux-gnu";
    *defaultCPU = "x86-64-v3";
  } else if (!*name || strchr(name, ' ')) {
    kilnCompileReport(cb, ud,
                      "--target='%s': expected host, x86-64-v3, "
                      "aarch64-linux-gnu or an LLVM triple",
                      name);
    return NULL;
  }
  char *llvmOwned =
      raw ? LLVMNormalizeTargetTriple(raw) : LLVMGetDefaultTargetTriple();
  char *triple = kilnStrDup(llvmOwned);
  LLVMDisposeMessage(llvmOwned);
  bool known = archIs(triple, "x86_64") || archIs(triple, "aarch64");
  if (!known || !strstr(triple, "-linux")) {
    /* Show the normalized triple when LLVM changed the name. */
    KilnStrBuf shown = {0};
    kilnStrBufAppendf(&shown, "'%s'", name);
    if (strcmp(name, triple))
      kilnStrBufAppendf(&shown, " (%s)", triple);
    kilnCompileReport(
        cb, ud,
        "--target=%s: only x86_64 and aarch64 Linux targets are supported "
        "(host, x86-64-v3, aarch64-linux-gnu or a triple like "
        "x86_64-unknown-linux-gnu)",
        kilnStrBufGet(&shown));
    kilnStrBufDestroy(&shown);
    free(triple);
    return NULL;
  }
  return triple;
}

/* Picks and checks the CPU and its features; false after reporting. */
static bool resolveCPU(KilnTarget *t, const char *requested,
                       const char *defaultCPU, MlirStringCallback cb,
                       void *ud) {
  char *hostTriple = LLVMGetDefaultTargetTriple();
  t->hostArch = sameArch(t->triple, hostTriple);
  LLVMDisposeMessage(hostTriple);
  const char *cpu = requested ? requested : defaultCPU;
  if (!cpu || !strcmp(cpu, "native")) {
    if (!t->hostArch) {
      kilnCompileReport(
          cb, ud,
          "--cpu=native: the host CPU cannot run code for '%s'; name a "
          "CPU for that architecture",
          t->triple);
      return false;
    }
    char *name = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
    t->cpu = kilnStrDup(name);
    t->features = kilnStrDup(features);
    LLVMDisposeMessage(name);
    LLVMDisposeMessage(features);
    return true;
  }
  const KnownCPU *list = archIs(t->triple, "x86_64") ? kX86CPUs : kAArch64CPUs;
  const KnownCPU *known = findCPU(list, cpu);
  if (!known) {
    KilnStrBuf names = {0};
    appendList(&names, list);
    kilnCompileReport(
        cb, ud, "--cpu='%s': not a known CPU for %.*s (known: %s)", cpu,
        (int)archLength(t->triple), t->triple, kilnStrBufGet(&names));
    kilnStrBufDestroy(&names);
    return false;
  }
  t->cpu = kilnStrDup(cpu);
  t->features = kilnStrDup(known->features);
  return true;
}

/* NVIDIA architectures Kiln compiles kernels for, each with the oldest PTX
 * ISA that supports it (LLVM's NVPTX back end aborts when the PTX version
 * is too old for the architecture, so this is checked here). */
static const struct GpuArch {
  const char *name, *features;
} kGpuArchs[] = {
    {"sm_70", "+ptx60"},  {"sm_72", "+ptx61"},  {"sm_75", "+ptx63"},
    {"sm_80", "+ptx70"},  {"sm_86", "+ptx71"},  {"sm_87", "+ptx74"},
    {"sm_89", "+ptx78"},  {"sm_90", "+ptx78"},  {"sm_90a", "+ptx80"},
    {"sm_100", "+ptx86"}, {"sm_120", "+ptx87"},
};

/* Resolves the GPU part of `options` into t; false after reporting. */
static bool resolveGpu(KilnTarget *t, const KilnTargetOptions *options,
                       MlirStringCallback errorCallback, void *userData) {
  bool cuda = options->target && !strcmp(options->target, "cuda");
  if (!cuda) {
    if (!options->gpuArch)
      return true;
    kilnCompileReport(errorCallback, userData,
                      "--gpu-arch=%s needs --target=cuda", options->gpuArch);
    return false;
  }
  const char *arch = options->gpuArch ? options->gpuArch : "sm_90";
  for (size_t i = 0; i < sizeof(kGpuArchs) / sizeof(kGpuArchs[0]); ++i)
    if (!strcmp(arch, kGpuArchs[i].name)) {
      t->gpuArch = kGpuArchs[i].name;
      t->gpuFeatures = kGpuArchs[i].features;
      return true;
    }
  KilnStrBuf known = {0};
  for (size_t i = 0; i < sizeof(kGpuArchs) / sizeof(kGpuArchs[0]); ++i)
    kilnStrBufAppendf(&known, "%s%s", i ? ", " : "", kGpuArchs[i].name);
  kilnCompileReport(errorCallback, userData,
                    "--gpu-arch=%s: unknown NVIDIA GPU architecture (known: "
                    "%s)",
                    arch, kilnStrBufGet(&known));
  kilnStrBufDestroy(&known);
  return false;
}

KilnTarget *kilnTargetCreate(const KilnTargetOptions *options,
                             MlirStringCallback errorCallback, void *userData) {
  if (options->optLevel < 0 || options->optLevel > 3) {
    kilnCompileReport(errorCallback, userData,
                      "-O%d: expected -O0, -O1, -O2 or -O3", options->optLevel);
    return NULL;
  }
  kilnTargetInitializeLLVM();
  KilnTarget gpu = {0};
  if (!resolveGpu(&gpu, options, errorCallback, userData))
    return NULL;
  /* A CUDA model's host code runs on this machine. */
  const char *defaultCPU;
  char *triple = resolveTriple(gpu.gpuArch ? NULL : options->target,
                               &defaultCPU, errorCallback, userData);
  if (!triple)
    return NULL;
  KilnTarget *t = calloc(1, sizeof(*t));
  if (!t)
    abort();
  t->gpuArch = gpu.gpuArch;
  t->gpuFeatures = gpu.gpuFeatures;
  t->triple = triple;
  t->optLevel = options->optLevel;
  char *why = NULL;
  if (LLVMGetTargetFromTriple(t->triple, &t->llvmTarget, &why)) {
    kilnCompileReport(errorCallback, userData, "--target: %s: %s", t->triple,
                      why ? why : "unknown target");
    LLVMDisposeMessage(why);
    kilnTargetDestroy(t);
    return NULL;
  }
  if (!resolveCPU(t, options->cpu, defaultCPU, errorCallback, userData)) {
    kilnTargetDestroy(t);
    return NULL;
  }
  return t;
}

void kilnTargetDestroy(KilnTarget *target) {
  if (!target)
    return;
  free(target->triple);
  free(target->cpu);
  free(target->features);
  free(target);
}

const char *kilnTargetGetTriple(const KilnTarget *target) {
  return target->triple;
}
const char *kilnTargetGetCPU(const KilnTarget *target) { return target->cpu; }
const char *kilnTargetGetFeatures(const KilnTarget *target) {
  return target->features;
}
bool kilnTargetIsHostArch(const KilnTarget *target) { return target->hostArch; }
const char *kilnTargetGetGpuArch(const KilnTarget *target) {
  return target->gpuArch;
}
const char *kilnTargetGetGpuFeatures(const KilnTarget *target) {
  return target->gpuFeatures;
}
int kilnTargetGetOptLevel(const KilnTarget *target) { return target->optLevel; }

LLVMTargetMachineRef kilnTargetCreateMachine(const KilnTarget *target) {
  static const LLVMCodeGenOptLevel kLevels[] = {
      LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault,
      LLVMCodeGenLevelAggressive};
  /* PIC: the code goes into a shared object. */
  return LLVMCreateTargetMachine(
      target->llvmTarget, target->triple, target->cpu, target->features,
      kLevels[target->optLevel], LLVMRelocPIC, LLVMCodeModelDefault);
}
