# liblayout — plain Makefile.  `make`, `make test`, `make demo`, `make bench`,
# `make docs`, `make install PREFIX=...`, `make sanitize`, `make valgrind`,
# `make clean`, `make deps`.  Sources are found by wildcard: a new
# lib/<layer>/*.c (one folder per layer, zstd-style; lib/LAYERS orders them),
# tests/test_*.c, examples/*.c or bench/*.c needs no Makefile change.

VERSION   := 0.1.0
CC        ?= cc
AR        ?= ar
PREFIX    ?= /usr/local
BUILD     ?= build
OPT       ?= -O2 -g
# Warnings are errors only on request (CI: `make WERROR=1`), so a newer
# compiler with new warnings still builds the library for users.  Command-line
# variables reach the recursive $(MAKE) calls below through MAKEFLAGS.
WERROR    ?= 0
WERRFLAG  := $(if $(filter 1 yes,$(WERROR)),-Werror)
WARN      := -std=c11 -Wall -Wextra -Wpedantic $(WERRFLAG)
CPPFLAGS  += -Iinclude
CFLAGS    += $(WARN) $(OPT) -fPIC
LDFLAGS   +=
LDLIBS    += -lm

# lib/*_avx2.c are compiled with -mavx2 on x86 only; on other targets they
# compile to their portable stub (they guard their bodies with __AVX2__).
MACHINE   := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq (,$(filter x86_64% i686% i386% amd64%,$(MACHINE)))
AVX2FLAGS := -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt
endif

LIB_SRCS   := $(sort $(wildcard lib/*/*.c))
LIB_OBJS   := $(patsubst lib/%.c,$(BUILD)/lib/%.o,$(LIB_SRCS))
HEADERS    := include/layout.h $(wildcard include/layout/*.h)
STATIC_LIB := $(BUILD)/liblayout.a
SHARED_LIB := $(BUILD)/liblayout.so
# The shared library's ABI name: liblayout.so.<major>.  `make install` puts the
# file as liblayout.so.$(VERSION) with the links liblayout.so.$(SOVERSION) (the
# SONAME, what programs and the Python module load) and liblayout.so (what
# -llayout links against); the build directory keeps only liblayout.so.
SOVERSION  := $(firstword $(subst ., ,$(VERSION)))
SONAME     := liblayout.so.$(SOVERSION)

TEST_SRCS    := $(sort $(wildcard tests/test_*.c))
TEST_BINS    := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRCS))
SUPPORT_SRCS := $(sort $(wildcard tests/support/*.c))
SUPPORT_OBJS := $(patsubst tests/support/%.c,$(BUILD)/tests/support/%.o,$(SUPPORT_SRCS))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
EXAMPLE_BINS := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRCS))
BENCH_SRCS   := $(sort $(wildcard bench/*.c))
BENCH_BINS   := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))
TOOL_SRCS    := $(sort $(wildcard tools/*.c))
TOOL_BIN     := $(if $(TOOL_SRCS),$(BUILD)/bin/layout)

.PHONY: all lib deps test check sanitize valgrind coverage fuzz fuzz-smoke fuzz-long tsan stable demo examples bench docs install uninstall clean

all: lib $(TOOL_BIN)

lib: $(STATIC_LIB) $(SHARED_LIB)

$(BUILD)/lib/%_avx2.o: lib/%_avx2.c $(HEADERS) $(wildcard lib/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(AVX2FLAGS) -c $< -o $@

$(BUILD)/lib/%.o: lib/%.c $(HEADERS) $(wildcard lib/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(STATIC_LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# Relinked when the Makefile changes (the SONAME is set here).
$(SHARED_LIB): $(LIB_OBJS) Makefile
	$(CC) -shared $(CFLAGS) $(LDFLAGS) -Wl,-soname,$(SONAME) -o $@ $(LIB_OBJS) $(LDLIBS)

$(BUILD)/tests/support/%.o: tests/support/%.c $(HEADERS) $(wildcard tests/*.h tests/support/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -c $< -o $@

$(BUILD)/tests/%: tests/%.c $(STATIC_LIB) $(SUPPORT_OBJS) $(wildcard tests/*.h tests/support/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests -Ilib $(CFLAGS) -DLAYOUT_TOOL_PATH=\"$(abspath $(TOOL_BIN))\" $< $(SUPPORT_OBJS) -o $@ $(LDFLAGS) $(STATIC_LIB) $(LDLIBS)

# test_fuzz_replay runs the fuzz targets' checks (it includes fuzz/*.c)
$(BUILD)/tests/test_fuzz_replay: $(wildcard fuzz/*.c fuzz/*.h)

# The tool's test runs the tool binary of the same build.
$(BUILD)/tests/test_tool: $(TOOL_BIN)

$(BUILD)/examples/%: examples/%.c $(STATIC_LIB) $(wildcard examples/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Iexamples $(CFLAGS) $< -o $@ $(LDFLAGS) $(STATIC_LIB) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c $(STATIC_LIB) $(wildcard bench/*.h examples/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ibench -Iexamples $(CFLAGS) $< -o $@ $(LDFLAGS) $(STATIC_LIB) $(LDLIBS)

$(BUILD)/bin/layout: $(TOOL_SRCS) $(STATIC_LIB) $(wildcard tools/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itools $(CFLAGS) -DLAYOUT_VERSION=\"$(VERSION)\" $(TOOL_SRCS) -o $@ $(LDFLAGS) $(STATIC_LIB) $(LDLIBS)

# The public headers must also compile as C++ (extern "C", no C-only syntax).
# The C++ compiler matching CC when installed (clang-22 -> clang++-22, gcc-12
# -> g++-12, clang -> clang++), else c++.
CXX_MATCH  = $(if $(filter clang%,$(notdir $(CC))),$(patsubst clang%,clang++%,$(notdir $(CC))),$(if $(filter gcc-%,$(notdir $(CC))),$(patsubst gcc-%,g++-%,$(notdir $(CC)))))
CXX_FOR_CC = $(or $(if $(CXX_MATCH),$(shell command -v $(CXX_MATCH) 2>/dev/null)),c++)
$(BUILD)/cxx_header_check.o: $(HEADERS)
	@mkdir -p $(dir $@)
	printf '#include "layout.h"\nint main() { return 0; }\n' > $(BUILD)/cxx_header_check.cpp
	$(CXX_FOR_CC) -std=c++11 -Wall -Wextra $(WERRFLAG) -pedantic $(CPPFLAGS) -c $(BUILD)/cxx_header_check.cpp -o $@

# tests/test_run_summary.sh: run.sh's closing line counts skipped suites.
# tests/test_doc_refs.sh: every "docs/X.md §N" citation names an existing
# section, and no reference to documents outside the repository comes back.
test: $(TEST_BINS) $(EXAMPLE_BINS) $(BUILD)/cxx_header_check.o $(TOOL_BIN) deps $(SNIPPET_PREFIX)
	@sh tests/run.sh $(TEST_BINS) $(PYTHON_TESTS) $(SNIPPET_TESTS) tests/test_doc_refs.sh tests/test_run_summary.sh

# Every code block of README.md and docs/*.md, run against an installed copy
# (tests/snippets/run_snippets.sh): C blocks compiled through pkg-config,
# shell blocks with the installed tool, Python blocks with the module.  Not
# in sanitizer or coverage builds (a snippet compiled with plain flags cannot
# link their instrumented library).
SNIPPET_PREFIX = $(if $(findstring -fsanitize,$(OPT) $(LDFLAGS))$(findstring --coverage,$(OPT)),,$(BUILD)/snippet-prefix)
SNIPPET_TESTS  = $(if $(SNIPPET_PREFIX),tests/snippets/test_snippets.sh)
# (a prerequisite list is expanded when read: the `test:` rule above saw
# SNIPPET_PREFIX still undefined, so the installed copy is named here)
test: $(SNIPPET_PREFIX)
.PHONY: snippets
$(BUILD)/snippet-prefix: lib $(TOOL_BIN) $(BUILD)/cmake/layoutConfigVersion.cmake
	rm -rf $@
	$(MAKE) --no-print-directory PREFIX=$(abspath $@) install >/dev/null
snippets: $(BUILD)/snippet-prefix
	@LAYOUT_SNIPPET_PREFIX=$(abspath $(BUILD)/snippet-prefix) sh tests/snippets/test_snippets.sh

# The layer check (lib/LAYERS, tests/layers/check_layers.sh): no file
# includes or calls into a layer above its own, nor includes another
# folder's *_internal.h, no circle of calls but the named twins, every
# global symbol prefixed layout_.  First its own test
# (tests/layers/test_layers.sh plants an upward include, another folder's
# private header, an upward call, a circle and an unprefixed symbol in a
# copy of the tree and requires each to fail), then the tree as built.
deps: $(LIB_OBJS)
	@sh tests/layers/test_layers.sh $(BUILD)/lib
	@sh tests/layers/check_layers.sh $(BUILD)/lib

check: test

SANFLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
sanitize:
	$(MAKE) BUILD=$(BUILD)-san OPT="$(SANFLAGS)" LDFLAGS="-fsanitize=address,undefined" test

valgrind:
	$(MAKE) BUILD=$(BUILD)-vg OPT="-O1 -g" $(patsubst $(BUILD)/%,$(BUILD)-vg/%,$(TEST_BINS))
	LAYOUT_TEST_SCALE=$${LAYOUT_TEST_SCALE:-0.02} LAYOUT_UNDER_VALGRIND=1 \
	LAYOUT_TEST_WRAPPER="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
	sh tests/run.sh $(patsubst $(BUILD)/%,$(BUILD)-vg/%,$(TEST_BINS))

# Line and branch coverage of lib/ (gcc --coverage + gcovr from Debian);
# per-file report in $(BUILD)-cov/coverage.txt.  Atomic counters: tests/test_threads.c
# runs the library from 8 threads (racing counters go negative and gcovr fails).  Fails below COV_MIN_LINES /
# COV_MIN_BRANCHES percent (the README records the current figures).
COV_MIN_LINES    ?= 0
COV_MIN_BRANCHES ?= 0
coverage:
	rm -rf $(BUILD)-cov
	$(MAKE) BUILD=$(BUILD)-cov CC=gcc OPT="-O0 -g --coverage -fprofile-update=atomic" LDFLAGS="--coverage" test
	gcovr -r . --object-directory $(BUILD)-cov/lib -f 'lib/' --exclude-unreachable-branches --print-summary \
	    --txt $(BUILD)-cov/coverage.txt --fail-under-line $(COV_MIN_LINES) --fail-under-branch $(COV_MIN_BRANCHES) \
	    > $(BUILD)-cov/summary.txt || { cat $(BUILD)-cov/summary.txt; echo "coverage: below $(COV_MIN_LINES)% lines / $(COV_MIN_BRANCHES)% branches"; exit 1; }
	@tail -n 3 $(BUILD)-cov/summary.txt

# libFuzzer targets (clang): fuzz/*.c, each against a sanitized clang build of the library.
FUZZ_SRCS    := $(sort $(wildcard fuzz/*.c))
FUZZ_BINS    := $(patsubst fuzz/%.c,$(BUILD)-fuzz/%,$(FUZZ_SRCS))
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS ?= 60
# A fixed seed makes the CI smoke run replay the input sequence verified before
# landing; FUZZ_SEED=0 lets libFuzzer pick a random seed (long exploratory runs).
FUZZ_SEED    ?= 1
# The targets link the test support code (tests/support/*.c: reference evaluators).
FUZZ_SUPPORT := $(patsubst tests/support/%.c,$(BUILD)-fuzz/tests/support/%.o,$(SUPPORT_SRCS))
# The evaluation kernels (the per-coordinate / per-lane inner loops) keep
# edge coverage but drop libFuzzer's comparison tracing (trace-cmp): every
# compare there is a loop bound or an index, and the callbacks took ~75 % of
# fuzz_dist's time (perf).  Likewise the fuzzers' reference
# evaluator (tests/support/ref_eval.c).  Parsers, constructors and validators
# keep it.  FUZZ_EVAL_FLAGS is set only by the fuzz build below.
FUZZ_EVAL_SRCS := lib/core/adaptor.c lib/core/transform.c lib/core/descriptor.c lib/tile/distribution.c \
                  $(wildcard lib/tile/access*.c) \
                  lib/plan/plan.c lib/plan/plan_avx2.c lib/check/check.c lib/check/check_avx2.c \
                  lib/family/enumerate.c lib/family/closed_form.c lib/suggest/score.c lib/suggest/score_linear.c \
                  lib/suggest/score_summary.c \
                  lib/dialect/cute_match.c
# (lib/tile/access*.c: the access plans, split by concept, as one unit;
# enumerate.c, closed_form.c: the parameter-set enumerator and the closed forms, whose compares are range bounds
# and divisibility tests; score.c, score_linear.c, score_summary.c: the search's scoring loops; cute_match.c:
# the CuTe recogniser's trial swizzles, ~55 % of fuzz_dialect's time.)
$(patsubst lib/%.c,$(BUILD)/lib/%.o,$(filter $(LIB_SRCS),$(FUZZ_EVAL_SRCS))): CFLAGS += $(FUZZ_EVAL_FLAGS)
$(BUILD)/tests/support/ref_eval.o: CFLAGS += $(FUZZ_EVAL_FLAGS)
fuzz:
	$(MAKE) BUILD=$(BUILD)-fuzz CC=clang OPT="-O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
	    FUZZ_EVAL_FLAGS="-fno-sanitize-coverage=trace-cmp" $(BUILD)-fuzz/liblayout.a $(FUZZ_SUPPORT)
	$(MAKE) CC=clang $(FUZZ_BINS)

$(BUILD)-fuzz/%: fuzz/%.c $(BUILD)-fuzz/liblayout.a $(FUZZ_SUPPORT) $(wildcard fuzz/*.h tests/support/*.h)
	clang $(CPPFLAGS) -Ifuzz -Itests $(WARN) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer $< -o $@ \
	    $(FUZZ_SUPPORT) $(BUILD)-fuzz/liblayout.a $(LDLIBS)

# Run every fuzz target for FUZZ_SECONDS on a fresh copy of its seed corpus
# (tests/corpus/<target>/; what an earlier run grew is dropped, so every
# run starts where CI's does), in parallel under make -j (the recursive make
# shares the jobserver; each target's lines come out together, make 4's
# --output-sync).  Each prints its
# executions, exec/s (wall clock) and executions per CPU-second (the
# fuzzer's own CPU time, from the shell's `times`: the figure that does not
# depend on how busy the machine is).  A crash fails the
# run and leaves the reproducer in $(BUILD)-fuzz/<target>-crash-*; replay it
# with `$(BUILD)-fuzz/<target> <file>` and add it as a regression test.
FUZZ_NAMES := $(patsubst fuzz/%.c,%,$(FUZZ_SRCS))
fuzz-smoke: fuzz
	@$(MAKE) --no-print-directory $(if $(filter 3.%,$(MAKE_VERSION)),,--output-sync=target) $(addprefix fuzz-run-,$(FUZZ_NAMES))

fuzz-run-%:
	@n=$*; f=$(BUILD)-fuzz/$$n; corpus=$(BUILD)-fuzz/corpus-$$n; log=$(BUILD)-fuzz/$$n.log; \
	rm -rf $$corpus; mkdir -p $$corpus; if [ -d tests/corpus/$$n ]; then cp -r tests/corpus/$$n/. $$corpus/; fi; \
	echo "fuzz-smoke: $$n for $(FUZZ_SECONDS) s"; \
	rc=0; $$f -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -timeout=30 -rss_limit_mb=3072 -print_final_stats=1 \
	    -artifact_prefix=$(BUILD)-fuzz/$$n- $$corpus > $$log 2>&1 || rc=$$?; \
	if [ $$rc -ne 0 ]; then tail -n 60 $$log; echo "fuzz-smoke: $$n FAILED (log $$log)"; exit 1; fi; \
	execs=$$(grep -E '^stat::number_of_executed_units' $$log | awk '{print $$2}'); \
	times > $$log.times; \
	cpu=$$(tail -n 1 $$log.times | awk '{split($$1, u, /[ms]/); split($$2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2]}'); \
	echo "fuzz-smoke: $$n ok: $$execs executions" \
	    "($$(grep -E '^stat::average_exec_per_sec' $$log | awk '{print $$2}') exec/s," \
	    "$$(echo "$$execs $$cpu" | awk '{printf "%.0f", ($$2 > 0 ? $$1 / $$2 : 0)}') per CPU-second of $$cpu)," \
	    "$$(ls $$corpus | wc -l) corpus files, no crash"

# A campaign: every target at once, JOBS processes each with random seeds,
# for FUZZ_SECONDS; prints executions, CPU seconds and crashes per target
# (fuzz/campaign.sh, which also runs alone on another machine).
JOBS ?= 1
.PHONY: fuzz-campaign
fuzz-campaign: fuzz
	@sh fuzz/campaign.sh $(BUILD)-fuzz $(FUZZ_SECONDS) $(JOBS)

# The long-run recipe: every target for FUZZ_LONG_SECONDS (one hour) with a
# random seed, one after the other unless run under make -j.
FUZZ_LONG_SECONDS ?= 3600
fuzz-long:
	@$(MAKE) --no-print-directory fuzz-smoke FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_SEED=0

# Stable results: tests/stable/stable_dump.c digests the library's outputs
# over a fixed pseudo-random corpus; built with gcc and clang at -O0 and -O3
# and run with the scalar and the AVX2 checker, every output must be identical.
STABLE_BUILDS := gcc:-O0 gcc:-O3 clang:-O0 clang:-O3
$(BUILD)/stable/%: tests/stable/%.c $(STATIC_LIB) $(SUPPORT_OBJS) $(wildcard tests/support/*.h examples/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $< $(SUPPORT_OBJS) -o $@ $(LDFLAGS) $(STATIC_LIB) $(LDLIBS)

stable:
	@set -e; ref=; for b in $(STABLE_BUILDS); do \
	    cc=$${b%%:*}; opt=$${b#*:}; dir=$(BUILD)-stable-$$cc$$opt; \
	    $(MAKE) --no-print-directory BUILD=$$dir CC=$$cc OPT="$$opt" $$dir/stable/stable_dump >/dev/null; \
	    for impl in scalar avx2; do \
	        out=$$dir/stable-$$impl.txt; rc=0; $$dir/stable/stable_dump $$impl > $$out || rc=$$?; \
	        if [ $$rc -eq 2 ]; then echo "stable: $$cc $$opt $$impl: not available here, skipped"; continue; fi; \
	        [ $$rc -eq 0 ] || { echo "stable: $$cc $$opt $$impl: stable_dump failed"; exit 1; }; \
	        if [ -z "$$ref" ]; then ref=$$out; cat $$ref; echo "stable: $$cc $$opt $$impl: reference"; \
	        elif cmp -s $$ref $$out; then echo "stable: $$cc $$opt $$impl: identical"; \
	        else echo "stable: $$cc $$opt $$impl DIFFERS from $$ref (rerun both with -v and diff):"; \
	            diff $$ref $$out || true; exit 1; fi; \
	    done; \
	done

examples: $(EXAMPLE_BINS)

# The main job also builds what the README's tour uses: the `layout` tool and
# both libraries (the Python module loads liblayout.so).
demo: all $(BUILD)/examples/demo
	@$(BUILD)/examples/demo
	@echo
	@$(GLUON_DEMO)
	@echo
	@echo "Built: $(TOOL_BIN), $(STATIC_LIB), $(SHARED_LIB)."
	@echo "Run the tool as $(TOOL_BIN), or put it on PATH:  export PATH=\"$(abspath $(BUILD))/bin:\$$PATH\""

# The demo's Python part: a Gluon GEMM's operand tile (examples/gluon_demo.py,
# docs/gluon.md), when a python3 is there; no Triton needed.
GLUON_DEMO = py=$${PYTHON:-python3}; if command -v "$$py" >/dev/null 2>&1; then \
	PYTHONPATH=python LIBLAYOUT_PATH=$(abspath $(SHARED_LIB)) "$$py" examples/gluon_demo.py; \
	else echo "demo: $$py not found: the Gluon part (examples/gluon_demo.py) is skipped"; fi

bench: $(BENCH_BINS)
	@sh bench/run.sh $(BUILD) $(BENCH_BINS)
	@$(BENCH_PYTHON)

docs:
	@mkdir -p $(BUILD)/docs
	( cat docs/Doxyfile; echo "OUTPUT_DIRECTORY=$(BUILD)/docs"; echo "PROJECT_NUMBER=$(VERSION)" ) | doxygen -

# CMake package (cmake/): PREFIX/lib/cmake/layout/layoutConfig.cmake is
# relocatable as is; the version file records VERSION and the pointer size.
SIZEOF_VOID_P = $(shell printf '__SIZEOF_POINTER__\n' | $(CC) -E -P - 2>/dev/null | tr -d ' ')
$(BUILD)/cmake/layoutConfigVersion.cmake: cmake/layoutConfigVersion.cmake.in
	@mkdir -p $(dir $@)
	sed -e 's|@VERSION@|$(VERSION)|g' -e 's|@SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' $< > $@

# install / uninstall.  PYTHON=... (command line or environment) also installs
# the Python package with that interpreter (python/backend/liblayout_build.py:
# no pip needed) into its site directory under PREFIX, recording
# PREFIX/lib as where liblayout.so is; uninstall removes it whether or not
# PYTHON is given.  layout.pc is written at install time, so it always names
# this PREFIX.
LIBDIR      = $(PREFIX)/lib
PY_SITE_GLOB = $(DESTDIR)$(LIBDIR)/python*/*-packages

install: lib $(TOOL_BIN) $(BUILD)/cmake/layoutConfigVersion.cmake
	install -d $(DESTDIR)$(PREFIX)/include/layout $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/layout.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/layout/*.h $(DESTDIR)$(PREFIX)/include/layout/
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/liblayout.so.$(VERSION)
	ln -sf liblayout.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/liblayout.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' pkgconfig/layout.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/layout.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/layout.pc
	install -d $(DESTDIR)$(LIBDIR)/cmake/layout
	install -m 644 cmake/layoutConfig.cmake $(BUILD)/cmake/layoutConfigVersion.cmake $(DESTDIR)$(LIBDIR)/cmake/layout/
	$(if $(TOOL_BIN),install -d $(DESTDIR)$(PREFIX)/bin && install -m 755 $(TOOL_BIN) $(DESTDIR)$(PREFIX)/bin/)
	$(if $(wildcard docs/layout.1),install -d $(DESTDIR)$(PREFIX)/share/man/man1 && install -m 644 docs/layout.1 $(DESTDIR)$(PREFIX)/share/man/man1/)
	$(if $(PYTHON),$(PYTHON) python/backend/liblayout_build.py install --prefix '$(PREFIX)' --root '$(DESTDIR)' --libdir '$(LIBDIR)')

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/layout $(DESTDIR)$(PREFIX)/include/layout.h
	rm -f $(DESTDIR)$(LIBDIR)/liblayout.a $(DESTDIR)$(LIBDIR)/liblayout.so
	rm -f $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/liblayout.so.$(VERSION)
	rm -f $(DESTDIR)$(LIBDIR)/pkgconfig/layout.pc $(DESTDIR)$(PREFIX)/bin/layout
	rm -rf $(DESTDIR)$(LIBDIR)/cmake/layout
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/layout.1
	rm -rf $(PY_SITE_GLOB)/liblayout $(PY_SITE_GLOB)/liblayout-[0-9]*.dist-info
	rmdir $(PY_SITE_GLOB) $(DESTDIR)$(LIBDIR)/python* 2>/dev/null || true

clean:
	rm -rf $(BUILD) $(BUILD)-san $(BUILD)-vg $(BUILD)-cov $(BUILD)-fuzz $(BUILD)-stable-* $(BUILD)-tsan

# ---- CLI error table, threads, ThreadSanitizer ----------------------------------
# The CLI error table runs the tool binary of the same build.
$(BUILD)/tests/test_cli_errors: $(TOOL_BIN)
# test_emit compares the tool's errors with `layout check`'s.
$(BUILD)/tests/test_emit: $(TOOL_BIN)
# Tests that start threads link -pthread (the library itself never does).
PTHREAD_TESTS := $(filter $(BUILD)/tests/test_threads $(BUILD)/tests/test_stack_bounds,$(TEST_BINS))
$(PTHREAD_TESTS): CFLAGS += -pthread
$(PTHREAD_TESTS): LDLIBS += -pthread

# ThreadSanitizer: the whole suite (TSAN_TESTS=all, the default; or a list,
# e.g. TSAN_TESTS=test_threads, as .ci/run runs the tests that start
# threads), tests/test_threads.c driving 8 threads, built in its own
# $(BUILD)-tsan with CC (gcc or clang); the tool too (tests run it).
TSAN_TESTS ?= all
TSAN_BINS  := $(if $(filter all,$(TSAN_TESTS)),$(patsubst $(BUILD)/%,$(BUILD)-tsan/%,$(TEST_BINS)),\
                $(addprefix $(BUILD)-tsan/tests/,$(TSAN_TESTS)))
tsan:
	$(MAKE) BUILD=$(BUILD)-tsan OPT="-O1 -g -fsanitize=thread" LDFLAGS="-fsanitize=thread" $(TSAN_BINS) \
	    $(BUILD)-tsan/bin/layout
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 $${TSAN_OPTIONS:-}" sh tests/run.sh $(TSAN_BINS)

# CMake consumer (tests/cmake_consumer/): install into $(BUILD)/cmake-prefix,
# then configure, build and run a find_package(layout) project against it
# (static and shared targets, and a relocated copy of the prefix).
.PHONY: cmake-test
cmake-test:
	rm -rf $(abspath $(BUILD))/cmake-prefix
	$(MAKE) --no-print-directory PREFIX=$(abspath $(BUILD))/cmake-prefix install >/dev/null
	sh tests/cmake_consumer/run.sh $(abspath $(BUILD))/cmake-prefix $(abspath $(BUILD))/cmake-consumer

# Python module (python/, package liblayout: ctypes over $(SHARED_LIB)).
# `make test` runs its pytest suite as one more entry of tests/run.sh (it
# prints "test_python: N passed, M failed, K skipped", or says why it is skipped when
# python3 / pytest are missing), except in sanitizer builds, whose shared
# library cannot be loaded into an uninstrumented python.  PYTHON=... (command
# line or environment) picks the interpreter; by default python/run_tests.sh
# takes the first of python3, /usr/bin/python3 that has pytest.
PYTHON_TESTS = $(if $(findstring -fsanitize,$(OPT) $(LDFLAGS)),,python/run_tests.sh)
test: $(if $(PYTHON_TESTS),$(SHARED_LIB))
test: export LIBLAYOUT_PATH = $(abspath $(SHARED_LIB))
test: export LAYOUT_TOOL = $(abspath $(TOOL_BIN))
test: export LAYOUT_SNIPPET_PREFIX = $(abspath $(BUILD)/snippet-prefix)

.PHONY: python-test
python-test: $(SHARED_LIB) $(TOOL_BIN)
	@LIBLAYOUT_PATH=$(abspath $(SHARED_LIB)) LAYOUT_TOOL=$(abspath $(TOOL_BIN)) sh python/run_tests.sh

# `make bench` also measures the Python module's overhead per batch call
# (python/bench_python.py against its C twin bench/bench_pyref) when a python3
# is there; the figures join $(BUILD)/bench.json.
bench: $(SHARED_LIB)
BENCH_PYTHON = py=$${PYTHON:-python3}; if command -v "$$py" >/dev/null 2>&1; then \
	LIBLAYOUT_PATH=$(abspath $(SHARED_LIB)) "$$py" python/bench_python.py --build $(BUILD); \
	else echo "bench: $$py not found: the Python overhead is not measured"; fi

# The interactive pages of `layout ... --html` in a real browser: Debian's
# chromium (CHROMIUM=/usr/bin/chromium) driven by playwright-core from npm,
# installed once with `cd tests/browser && npm ci` (no browser download).
# Screenshots go to $(BUILD)/browser/.
.PHONY: browser-test
browser-test: $(TOOL_BIN)
	@test -d tests/browser/node_modules/playwright-core || \
	    { echo "browser-test: run 'cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci' first"; exit 1; }
	CHROMIUM="$(CHROMIUM)" node tests/browser/test_html.mjs $(TOOL_BIN) $(BUILD)/browser

# test_html runs the tool of the same build.
$(BUILD)/tests/test_html: $(TOOL_BIN)

# The CLI test of `layout convert` runs the tool of the same build; so does
# test_calibrate's H100 replay (layout emit, layout calibrate).
$(BUILD)/tests/test_dialect_cli: $(TOOL_BIN)
$(BUILD)/tests/test_calibrate: $(TOOL_BIN)

# The CLI test of `layout triton` runs the tool of the same build.
$(BUILD)/tests/test_tool_triton: $(TOOL_BIN)
$(BUILD)/tests/test_triton_cut: $(TOOL_BIN)
