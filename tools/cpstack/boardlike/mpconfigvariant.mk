# The make variables of this variant are on build_unix.sh's make command line
# (MICROPY_FORCE_32BIT=1, no ffi/btree/ssl/ulab, no frozen modules, static).
