// CircuitPython 10.2.1's unix port with the Python language of an RP2040 full build
// (py/circuitpy_mpconfig.h with CIRCUITPY_FULL_BUILD=1): 31-bit small ints and float32
// inside the object word (MICROPY_OBJ_REPR_C: build with MICROPY_FORCE_32BIT=1), MPZ
// long ints, and the full build's language switches. No hardware modules.
// tools/cpstack/build_unix.sh copies this folder to ports/unix/variants/boardlike.

#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_CORE_FEATURES)

#define MICROPY_OBJ_REPR                    (MICROPY_OBJ_REPR_C)
#define MICROPY_FLOAT_IMPL                  (MICROPY_FLOAT_IMPL_FLOAT)
#define MICROPY_LONGINT_IMPL                (MICROPY_LONGINT_IMPL_MPZ)

// The unix port's usual extras (os, time, sys, heap statistics).
#include "../mpconfigvariant_common.h"

// The board's error messages, not the unix port's more detailed ones.
#undef MICROPY_ERROR_REPORTING
#define MICROPY_ERROR_REPORTING             (MICROPY_ERROR_REPORTING_NORMAL)

// As py/circuitpy_mpconfig.h sets them for a full build (its modules where the unix
// port has them: os, select, random, json, re, errno).
#define MICROPY_CAN_OVERRIDE_BUILTINS       (1)
#define MICROPY_COMP_CONST                  (1)
#define MICROPY_COMP_DOUBLE_TUPLE_ASSIGN    (1)
#define MICROPY_COMP_MODULE_CONST           (1)
#define MICROPY_CPYTHON_COMPAT              (1)
#define MICROPY_CPYTHON_EXCEPTION_CHAIN     (1)
#define MICROPY_ENABLE_SOURCE_LINE          (1)
#define MICROPY_HELPER_REPL                 (1)
#define MICROPY_KBD_EXCEPTION               (1)
#define MICROPY_MODULE_BUILTIN_INIT         (1)
#define MICROPY_MODULE_BUILTIN_SUBPACKAGES  (1)
#define MICROPY_PY_ALL_SPECIAL_METHODS      (1)
#define MICROPY_PY_ARRAY_SLICE_ASSIGN       (1)
#define MICROPY_PY_ATTRTUPLE                (1)
#define MICROPY_PY_BUILTINS_BYTES_HEX       (1)
#define MICROPY_PY_BUILTINS_COMPILE         (1)
#define MICROPY_PY_BUILTINS_COMPLEX         (1)
#define MICROPY_PY_BUILTINS_FROZENSET       (1)
#define MICROPY_PY_BUILTINS_HELP            (1)
#define MICROPY_PY_BUILTINS_HELP_MODULES    (1)
#define MICROPY_PY_BUILTINS_INPUT           (1)
#define MICROPY_PY_BUILTINS_MEMORYVIEW      (1)
#define MICROPY_PY_BUILTINS_NOTIMPLEMENTED  (1)
#define MICROPY_PY_BUILTINS_POW3            (1)
#define MICROPY_PY_BUILTINS_ROUND_INT       (1)
#define MICROPY_PY_BUILTINS_SLICE_ATTRS     (1)
#define MICROPY_PY_BUILTINS_SLICE_INDICES   (1)
#define MICROPY_PY_BUILTINS_STR_CENTER      (1)
#define MICROPY_PY_BUILTINS_STR_PARTITION   (1)
#define MICROPY_PY_BUILTINS_STR_SPLITLINES  (1)
#define MICROPY_PY_BUILTINS_STR_UNICODE     (1)
#define MICROPY_PY_COLLECTIONS_DEQUE        (1)
#define MICROPY_PY_COLLECTIONS_DEQUE_ITER   (1)
#define MICROPY_PY_COLLECTIONS_DEQUE_SUBSCR (1)
#define MICROPY_PY_COLLECTIONS_ORDEREDDICT  (1)
#define MICROPY_PY_DESCRIPTORS              (1)
#define MICROPY_PY_ERRNO                    (1)
#define MICROPY_PY_ERRNO_ERRORCODE          (1)
#define MICROPY_PY_FSTRINGS                 (1)
#define MICROPY_PY_FUNCTION_ATTRS           (1)
#define MICROPY_PY_JSON                     (1)
#define MICROPY_PY_OS                       (1)
#define MICROPY_PY_RANDOM                   (1)
#define MICROPY_PY_RE                       (1)
#define MICROPY_PY_RE_MATCH_GROUPS          (1)
#define MICROPY_PY_RE_MATCH_SPAN_START_END  (1)
#define MICROPY_PY_RE_SUB                   (1)
#define MICROPY_PY_REVERSE_SPECIAL_METHODS  (1)
#define MICROPY_PY_SELECT                   (1)
#define MICROPY_PY_SYS_MAXSIZE              (1)
#define MICROPY_PY_SYS_STDFILES             (1)
#define MICROPY_REPL_AUTO_INDENT            (1)
#define MICROPY_STACK_CHECK                 (1)
#define MICROPY_STREAMS_NON_BLOCK           (1)
