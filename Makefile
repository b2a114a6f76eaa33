# Linux Trace Toolkit: top-level build.
#
#   make run        install what is missing, build, show the bundled sample trace
#   make check      install what is missing, build, run every test (SANITIZE=1 too)
#   make            build the user-space tools into build/
#   make install    install them (PREFIX=/usr/local, DESTDIR; install.mk)
#   make kernel     unpack Debian's linux-source, apply kernel/patches, build bzImage
#   make stock-modules  the same tracer as modules of Debian's own kernel (kernel/modules)
#   make bench      the benchmarks of docs/performance.md (bench/)
#   make qemu-test  boot that kernel in QEMU and trace end to end
#   make demo-live  the same, shown live on the host (lttv-gtk --follow)
#   make fuzz       run the libFuzzer harness of the trace reader (FUZZ_SECONDS)
#
# Each component has a build.mk that adds its rules; outputs go under $(BUILD).

BUILD ?= build
ifeq ($(SANITIZE),1)
BUILD := build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif

CC ?= cc
CFLAGS ?= -O2 -g
WARNINGS := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wno-unused-parameter -Wno-missing-field-initializers -Werror
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -fPIC \
	-Iinclude -Ilibltttrace/include $(WARNINGS) $(SANFLAGS)
# CPPFLAGS and LDFLAGS are the caller's (dpkg-buildflags' hardening)
BASE_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

PKG_CONFIG ?= pkg-config
GLIB_CFLAGS = $(shell $(PKG_CONFIG) --cflags glib-2.0)
GLIB_LIBS = $(shell $(PKG_CONFIG) --libs glib-2.0)
POPT_LIBS = -lpopt

BIN := $(BUILD)/bin
LIB := $(BUILD)/lib
OBJ := $(BUILD)/obj

SAMPLE_TRACE ?= traces/qemu-busybox

# The version's one home is libltttrace/include/ltttrace-version.h.
ltt_version_part = $(shell sed -n 's/^.define LTTTRACE_VERSION_$(1) \([0-9]*\)$$/\1/p' \
	libltttrace/include/ltttrace-version.h)
LTT_VERSION := $(call ltt_version_part,MAJOR).$(call ltt_version_part,MINOR).$(call ltt_version_part,PATCH)

# Where `make install` puts things (DESTDIR is prepended to each). The
# facility catalogue's folder is compiled into the tools as a fallback
# (libltttrace/src/facilities-dir.c), so changing these rebuilds what
# depends on $(BUILD)/install-dirs.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
FACILITIES_DIR = $(DATADIR)/ltt/facilities

# The tools installed (each build.mk adds its own; test tools never).
INSTALL_BINS :=

.DEFAULT_GOAL := all
.PHONY: all deps run check test tests clean fuzz FORCE
all:
tests:

# Rewritten only when an install folder changed, so that what depends on
# it is rebuilt exactly then.
$(BUILD)/install-dirs: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX) $(BINDIR) $(LIBDIR) $(INCLUDEDIR) $(DATADIR)' >$@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@; fi

# A pkg-config file from its .pc.in, for the folders of `make install`;
# folders under PREFIX are written relative to ${prefix}, so that
# pkg-config --define-prefix (or --define-variable=prefix=) can move them.
pc_dir = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
define make-pc
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(call pc_dir,$(LIBDIR))|' \
		-e 's|@INCLUDEDIR@|$(call pc_dir,$(INCLUDEDIR))|' \
		-e 's|@VERSION@|$(LTT_VERSION)|' $< > $@
endef

# Run in place, the tools find the source tree's facility catalogue where
# they would find the installed one: ../share/ltt/facilities from bin/.
$(BUILD)/share/ltt/facilities:
	@mkdir -p $(dir $@)
	ln -sfn $(CURDIR)/facilities $@
all: $(BUILD)/share/ltt/facilities

deps:
	@scripts/install-deps.sh

include libltttrace/build.mk
include lttv-text/build.mk
include lttv-diff/build.mk
include lttv-convert/build.mk
include genevent/build.mk
include libltt-usertrace/build.mk
-include tests/build.mk
include tests/fuzz/build.mk
-include lttd/build.mk
-include lttv-gtk/build.mk
-include kernel/build.mk
-include kernel/modules/build.mk
-include qemu/build.mk
include install.mk

# The main job: install, build, and decode the bundled sample trace.
run: deps
	@$(MAKE) --no-print-directory all
	$(BIN)/lttv-text -t $(SAMPLE_TRACE) --field-names | head -n 40
	$(BIN)/lttv-text -t $(SAMPLE_TRACE) -q --cpu-stats --summary
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then \
		echo "opening lttv-gtk on $(SAMPLE_TRACE)"; \
		$(BIN)/lttv-gtk -t $(SAMPLE_TRACE); \
	else \
		$(BIN)/lttv-gtk -t $(SAMPLE_TRACE) --export $(BUILD)/controlflow.png >/dev/null && \
		echo "no display: the control-flow view of $(SAMPLE_TRACE) is in $(BUILD)/controlflow.png"; \
	fi

# Everything, from a fresh machine: install, build, all tests, then the
# whole suite again under AddressSanitizer and UBSan.
check: deps
	@scripts/install-deps.sh kernel
	@rm -f build/test-counts build-san/test-counts
	-@$(MAKE) --no-print-directory test
	-@$(MAKE) --no-print-directory SANITIZE=1 test
	@echo "== all runs (plain and SANITIZE=1):"
	@tests/total.sh build/test-counts build-san/test-counts

test: all tests
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) tests/run.sh

# Object files: one rule for every component.
$(OBJ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_$(firstword $(subst /, ,$<))) -MMD -MP -c $< -o $@

-include $(shell find $(OBJ) -name '*.d' 2>/dev/null)

clean:
	rm -rf build build-san

# Benchmarks (not part of make check): see docs/performance.md.  The
# tracer and lttd benchmarks boot their own kernel (make bench-kernel:
# build-kernel-bench/, ftrace's events, no debug options) in QEMU; each
# script says so when it skips its benchmark, and why.
.PHONY: bench
bench: all
	@scripts/install-deps.sh bench
	python3 bench/decode.py
	@$(MAKE) --no-print-directory bench-kernel || \
		echo "bench: the benchmark kernel did not build: the tracer and lttd benchmarks will skip"
	python3 bench/tracer.py
	python3 bench/lttd.py
	python3 bench/viewer.py
	python3 bench/live.py
