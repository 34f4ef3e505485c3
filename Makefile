# Makefile -- the C core as a static library for C and C++ consumers (no Swift needed), for the host or a cross
# target. The Swift package builds the same sources through Package.swift; this file is for everyone else.
#
#   make                                  build/<target>/libgeofence.a for the host
#   make CROSS=aarch64-linux-gnu-         ... with Debian's cross gcc (also arm-linux-gnueabihf-)
#   make check                            build and run Tests/CoreC/core_test (under qemu-user when CROSS is set)
#   make no-fpu-check                     compile the query path with the target's no-FPU flag (see below)
#   make install PREFIX=/usr/local        header, library and geofence.pc (pkg-config)
#   make clean
#
# <target> is what the compiler calls itself (gcc -dumpmachine), so every toolchain gets its own build directory
# and `make CROSS=...` never mixes objects of two architectures.

CROSS   ?=
# The project's one version, also the binary's (geofence --version) and the Debian package's.
VERSION := $(shell cat $(dir $(lastword $(MAKEFILE_LIST)))VERSION)
PREFIX  ?= /usr/local
DESTDIR ?=

# make's built-in CC is "cc"; a cross build needs the prefixed gcc. An explicit CC=... on the command line wins.
ifeq ($(origin CC),default)
CC := $(CROSS)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS)ar
endif
NM      ?= $(CROSS)nm
OBJDUMP ?= $(CROSS)objdump

TARGET := $(shell $(CC) -dumpmachine)
ifeq ($(TARGET),)
$(error cannot run $(CC); install the toolchain (scripts/cross-check.sh does) or set CROSS/CC)
endif
BUILD := build/$(TARGET)

CFLAGS_CORE := -std=c11 -O2 -Wall -Wextra -Werror -Iinclude
CFLAGS      ?=
CFLAGS_ALL  := $(CFLAGS_CORE) $(CFLAGS)

SOURCES := $(wildcard CSources/*.c)
OBJECTS := $(patsubst CSources/%.c,$(BUILD)/%.o,$(SOURCES))
HEADERS := include/geofence.h CSources/gf_internal.h

# gf_convert.c (degrees <-> e7, never on the query path) is the one unit allowed floating point.
QUERY_SOURCES := $(filter-out CSources/gf_convert.c,$(SOURCES))

# The no-FPU flag per architecture. On x86-64 and aarch64 -mgeneral-regs-only makes any float or double a compile
# error, so a successful compile is the proof. On 32-bit ARM -mfloat-abi=soft instead turns float arithmetic into
# calls to libgcc helpers (__aeabi_dadd, ...), so the proof there is that the objects reference none of them; and,
# since soft-float objects cannot be linked into a hard-float (armhf) program, the query-path objects of the armhf
# library itself are also checked to hold no VFP/NEON instruction (every such mnemonic starts with v).
ifneq ($(filter x86_64-% aarch64-%,$(TARGET)),)
NOFPU_FLAGS := -mgeneral-regs-only
else ifneq ($(filter arm-% armv7%,$(TARGET)),)
NOFPU_FLAGS := -mfloat-abi=soft
# Debian's armhf glibc ships only gnu/stubs-hf.h; a soft-float compile asks for gnu/stubs-soft.h, which merely lists
# unimplemented libc functions. An empty stand-in lets the headers parse; these objects are never linked.
NOFPU_FLAGS += -isystem $(BUILD)/nofpu-include
NOFPU_SHIM  := $(BUILD)/nofpu-include/gnu/stubs-soft.h
NOFPU_VFP_CHECK := 1
endif
NOFPU_OBJECTS := $(patsubst CSources/%.c,$(BUILD)/nofpu/%.o,$(QUERY_SOURCES))
QUERY_OBJECTS := $(patsubst CSources/%.c,$(BUILD)/%.o,$(QUERY_SOURCES))
# libgcc's soft-float helpers in the ARM EABI: __aeabi_dadd, __aeabi_fmul, __aeabi_d2iz, __aeabi_i2d, ... (no integer
# helper such as __aeabi_uldivmod or __aeabi_lmul matches).
SOFTFLOAT_SYMBOLS := '__aeabi_(d|f|u?[il]2[df])'

# Running target binaries: directly on the host; through qemu-user for a cross target, with -L pointing at the
# target's libc (Debian's cross packages put it in /usr/<target>). qemu-aarch64, qemu-arm, qemu-s390x, ...
ifeq ($(CROSS),)
RUN ?=
else
RUN ?= qemu-$(firstword $(subst -, ,$(TARGET))) -L /usr/$(TARGET)
endif

FIXTURE := Tests/CGeofenceTests/Fixtures/accuracy_vectors.csv Tests/CGeofenceTests/Fixtures/polygon_vectors.txt
TEST_SOURCES := $(filter-out Tests/CoreC/query_count.c,$(wildcard Tests/CoreC/*.c))
# The test replaces malloc and friends through the linker (GNU ld --wrap) to make allocations fail on demand, which is
# the only way to reach GF_ERR_NOMEM through the public API.
TEST_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free

.PHONY: all check no-fpu-check no-fpu-control install clean

all: $(BUILD)/libgeofence.a

$(BUILD)/%.o: CSources/%.c $(HEADERS) | $(BUILD)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/libgeofence.a: $(OBJECTS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD) $(BUILD)/nofpu:
	mkdir -p $@

$(BUILD)/core_test: $(TEST_SOURCES) Tests/CoreC/core_test.h $(BUILD)/libgeofence.a include/geofence.h
	$(CC) $(CFLAGS_ALL) -DCORE_TEST_WRAPPED_ALLOC=1 $(TEST_SOURCES) -o $@ -L$(BUILD) -lgeofence -lm $(TEST_WRAP)

# The instruction-count benchmark (scripts/cross-check.sh runs it under callgrind on the host).
$(BUILD)/query_count: Tests/CoreC/query_count.c $(BUILD)/libgeofence.a include/geofence.h
	$(CC) $(CFLAGS_ALL) -g $< -o $@ -L$(BUILD) -lgeofence -lm

# The log keeps the digest line for scripts/cross-check.sh to compare across architectures.
check: $(BUILD)/core_test
	@echo "$(strip $(RUN) $(BUILD)/core_test $(FIXTURE))"
	@$(RUN) $(BUILD)/core_test $(FIXTURE) > $(BUILD)/core_test.log 2>&1; status=$$?; \
	    cat $(BUILD)/core_test.log; exit $$status

$(BUILD)/nofpu/%.o: CSources/%.c $(HEADERS) $(NOFPU_SHIM) | $(BUILD)/nofpu
	$(CC) $(CFLAGS_ALL) $(NOFPU_FLAGS) -c $< -o $@

$(NOFPU_SHIM):
	mkdir -p $(dir $@)
	printf '/* Empty: see NOFPU_SHIM in Makefile. */\n' > $@

no-fpu-check: $(NOFPU_OBJECTS) $(QUERY_OBJECTS)
ifeq ($(NOFPU_FLAGS),)
	$(error no no-FPU flag known for $(TARGET))
endif
	@found=$$($(NM) -u $(NOFPU_OBJECTS) | grep -E $(SOFTFLOAT_SYMBOLS) || true); \
	if [ -n "$$found" ]; then echo "no-fpu-check: soft-float calls on the query path:"; echo "$$found"; exit 1; fi
	@echo "no-fpu-check: $(TARGET): $(words $(NOFPU_OBJECTS)) query-path units compile with" \
	    "$(firstword $(NOFPU_FLAGS)) and call no soft-float helper"
ifeq ($(NOFPU_VFP_CHECK),1)
	@vfp=$$($(OBJDUMP) -d $(QUERY_OBJECTS) | awk -F'\t' '$$3 ~ /^v/ {n++} END {print n+0}'); \
	if [ "$$vfp" -ne 0 ]; then echo "no-fpu-check: $$vfp VFP/NEON instructions in $(BUILD)/*.o"; exit 1; fi; \
	echo "no-fpu-check: $(TARGET): the library's own query-path objects hold no VFP/NEON instruction"
endif

# The control: gf_convert.c does use double, so under the same flag it must fail to compile (x86-64, aarch64) or show
# soft-float helpers (ARM). scripts/cross-check.sh runs it to show that no-fpu-check can fail.
no-fpu-control: CSources/gf_convert.c $(BUILD)/gf_convert.o $(HEADERS) $(NOFPU_SHIM) | $(BUILD)/nofpu
	@if ! $(CC) $(CFLAGS_ALL) $(NOFPU_FLAGS) -c $< -o $(BUILD)/nofpu/control.o 2>/dev/null; then \
	    echo "no-fpu-control: $(TARGET): gf_convert.c (double) is rejected by $(firstword $(NOFPU_FLAGS))"; \
	elif $(NM) -u $(BUILD)/nofpu/control.o | grep -qE $(SOFTFLOAT_SYMBOLS); then \
	    echo "no-fpu-control: $(TARGET): gf_convert.c (double) calls" \
	        $$($(NM) -u $(BUILD)/nofpu/control.o | grep -oE '__aeabi_[a-z0-9]+' | grep -E $(SOFTFLOAT_SYMBOLS)); \
	else echo "no-fpu-control: $(TARGET): the check missed gf_convert.c's floating point"; exit 1; fi
ifeq ($(NOFPU_VFP_CHECK),1)
	@vfp=$$($(OBJDUMP) -d $(BUILD)/gf_convert.o | awk -F'\t' '$$3 ~ /^v/ {n++} END {print n+0}'); \
	if [ "$$vfp" -eq 0 ]; then echo "no-fpu-control: the VFP check missed gf_convert.o's floating point"; exit 1; fi; \
	echo "no-fpu-control: $(TARGET): the library's gf_convert.o holds $$vfp VFP instructions"
endif

install: $(BUILD)/libgeofence.a geofence.pc.in
	mkdir -p $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	cp include/geofence.h $(DESTDIR)$(PREFIX)/include/
	cp $(BUILD)/libgeofence.a $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' geofence.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/geofence.pc

clean:
	rm -rf build

# ---- Sanitizers and fuzzing of the C core -------------------------------------------------------------------------
#
#   make check-sanitized                  Tests/CoreC/core_test under AddressSanitizer + UndefinedBehaviorSanitizer
#   make check-sanitized CC=clang-14      ... built by clang instead of gcc
#   make fuzz-core                        build/<target>/fuzz/fuzz_core, the libFuzzer target fuzz/core/fuzz_core.c
#   scripts/fuzz-core.sh [SECONDS]        installs clang, builds fuzz_core and runs it (default 60 s)
#
# Both builds compile the library's sources straight into the program with GF_DEBUG=1 (the core's internal asserts on)
# and -fno-sanitize-recover=all, so the first finding of either sanitizer aborts with a non-zero status. Host only:
# the sanitizer runtimes do not run under qemu-user. Their objects never mix with the -O2 library's.

SANITIZE_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
CFLAGS_SANITIZED := -std=c11 -Wall -Wextra -Werror -Iinclude -DGF_DEBUG=1 $(CFLAGS)
SANITIZED        := $(BUILD)/sanitized

.PHONY: check-sanitized fuzz-core

$(SANITIZED):
	mkdir -p $@

# The allocation hooks (--wrap=malloc, ...) stay: __real_malloc then resolves to the sanitizer's malloc, so the
# out-of-memory tests run and ASan still sees every block.
$(SANITIZED)/core_test: $(SOURCES) $(HEADERS) $(TEST_SOURCES) Tests/CoreC/core_test.h | $(SANITIZED)
	$(CC) $(CFLAGS_SANITIZED) $(SANITIZE_FLAGS) -DCORE_TEST_WRAPPED_ALLOC=1 -ICSources \
	    $(SOURCES) $(TEST_SOURCES) -o $@ -lm $(TEST_WRAP)

check-sanitized: $(SANITIZED)/core_test
ifneq ($(CROSS),)
	$(error check-sanitized runs on the host only (no CROSS))
endif
	@echo "$(SANITIZED)/core_test $(FIXTURE)"
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    $(SANITIZED)/core_test $(FIXTURE) > $(SANITIZED)/core_test.log 2>&1; status=$$?; \
	    cat $(SANITIZED)/core_test.log; exit $$status

# Polygons from real data: the Dutch provinces and the Australian states of ../shared/data/polygons, with reference
# vectors written by scripts/gen_polygon_vectors.py (python3-geographiclib) at run time (the data stays outside the
# repository), then checked by core_test like the committed fixture.
#   make check-polygons-shared [SHARED=../shared] [POLYGON_POINTS=3000]
SHARED ?= ../shared
POLYGON_POINTS ?= 3000
# Debian's interpreter, which python3-geographiclib is installed for (another python3 earlier in PATH, such as a
# pyenv shim, does not see Debian's modules).
PYTHON ?= /usr/bin/python3
SHARED_POLYGONS := the-netherlands australia
.PHONY: check-polygons-shared
check-polygons-shared: $(BUILD)/core_test
	@if [ ! -d $(SHARED)/data/polygons ]; then \
	    echo "check-polygons-shared: no $(SHARED)/data/polygons: skipped"; exit 0; \
	fi; \
	for name in $(SHARED_POLYGONS); do \
	    $(PYTHON) scripts/gen_polygon_vectors.py --geojson $(SHARED)/data/polygons/$$name.geojson \
	        --points $(POLYGON_POINTS) --output $(BUILD)/polygons-$$name.txt || exit 1; \
	done; \
	$(RUN) $(BUILD)/core_test $(FIXTURE) $(patsubst %,$(BUILD)/polygons-%.txt,$(SHARED_POLYGONS)) \
	    > $(BUILD)/core_test-polygons.log 2>&1; status=$$?; \
	grep -E "^polygon fixture|passed|FAIL" $(BUILD)/core_test-polygons.log | head -40; exit $$status

# libFuzzer ships with clang only; Debian 12's clang-14 needs libclang-rt-14-dev for it (a Recommends, so
# --no-install-recommends leaves it out). FUZZ_CC names the compiler, not CC: `make check` keeps gcc.
FUZZ_CC     ?= clang-14
FUZZ_FLAGS  := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1
FUZZ_BUILD  := $(BUILD)/fuzz

$(FUZZ_BUILD):
	mkdir -p $@

FUZZ_SOURCES := fuzz/core/fuzz_core.c fuzz/core/shape_oracle.c

$(FUZZ_BUILD)/fuzz_core: $(FUZZ_SOURCES) fuzz/core/shape_oracle.h $(SOURCES) $(HEADERS) | $(FUZZ_BUILD)
	$(FUZZ_CC) $(CFLAGS_SANITIZED) $(FUZZ_FLAGS) $(FUZZ_SOURCES) $(SOURCES) -o $@ -lm

fuzz-core: $(FUZZ_BUILD)/fuzz_core
