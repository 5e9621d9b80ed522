/* The memory plan of a compiled model: the most heap memory one run holds
 * at once, in bytes, computed by kiln-memory-plan (memory_plan.c) on the
 * bufferized module and kept in this module attribute (an i64) until the
 * model library's metadata records it (`memory BYTES`, docs/runtime.md),
 * where the runtime checks it against the machine's memory at load. */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_MEMORY_PLAN_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_MEMORY_PLAN_H

#define KILN_MEMORY_PLAN_ATTR "kiln.memory_plan"

#endif
