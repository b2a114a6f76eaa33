# make fuzz: build the libFuzzer harnesses with clang (ASan + UBSan) into
# build-fuzz/, seed them from the tree (tests/fuzz/seed.py) and run each
# for FUZZ_SECONDS, or FUZZ_RUNS executions when it is set (the campaign
# of docs/fuzzing.md: FUZZ_RUNS=10000000). tests/fuzz/run.sh prints each
# harness's executions, time and coverage. A finding stops its harness and
# leaves the input in build-fuzz/. Outside CI; t60 runs a short smoke.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_DIR := build-fuzz
FUZZ_HARNESSES := trace description ctf filter genevent lttng_meta lttng_stream
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -Ilibltttrace/include \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
	-DLTT_FACILITIES_DIR='"$(CURDIR)/facilities"' \
	-DLTT_TEST_FACILITIES_DIR='"$(CURDIR)/tests/facilities"'

# what each harness compiles besides the library
FUZZ_SRCS_trace :=
FUZZ_SRCS_description :=
FUZZ_SRCS_ctf := lttv-convert/ctf-writer.c
FUZZ_FLAGS_ctf := -Ilttv-convert
FUZZ_SRCS_filter := lttv-gtk/filter.c
FUZZ_FLAGS_filter := -Ilttv-gtk -DLTT_FUZZ_FILTER_TRACE='"$(CURDIR)/traces/sample-synthetic"'
FUZZ_SRCS_genevent := genevent/genevent.c genevent/names.c
FUZZ_SRCS_lttng_meta :=
FUZZ_FLAGS_lttng_meta := -Ilibltttrace/src
FUZZ_SRCS_lttng_stream :=
FUZZ_FLAGS_lttng_stream := -Ilibltttrace/src \
	-DLTT_FUZZ_LTTNG_METADATA='"$(CURDIR)/traces/lttng-ust-sample/ust/uid/0/64-bit/metadata"'
FUZZ_FLAGS_genevent := -Igenevent -Dmain=genevent_main $(GLIB_CFLAGS)
FUZZ_LIBS_genevent := $(POPT_LIBS)

$(FUZZ_DIR)/core-xml.c: facilities/core.xml
	@mkdir -p $(dir $@)
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR)/tmp $(FUZZ_DIR)/tmp/obj/libltttrace/core-xml.c
	cp $(FUZZ_DIR)/tmp/obj/libltttrace/core-xml.c $@

.SECONDEXPANSION:
$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/scratch-trace.h $(LIBLTT_SRCS) \
		$(wildcard libltttrace/src/*.h) $(FUZZ_DIR)/core-xml.c $$(FUZZ_SRCS_$$*)
	clang $(FUZZ_CFLAGS) $(FUZZ_FLAGS_$*) $(GLIB_CFLAGS) -o $@ $< $(FUZZ_SRCS_$*) \
		$(LIBLTT_SRCS) $(FUZZ_DIR)/core-xml.c $(GLIB_LIBS) $(FUZZ_LIBS_$*)

.PHONY: fuzz-build fuzz-seeds
fuzz-build: $(FUZZ_HARNESSES:%=$(FUZZ_DIR)/fuzz_%)

fuzz-seeds: $(BIN)/ltt-tracegen
	python3 tests/fuzz/seed.py $(FUZZ_DIR) $(BIN)/ltt-tracegen

fuzz: fuzz-build fuzz-seeds
	@for h in $(FUZZ_HARNESSES); do \
		FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) \
			tests/fuzz/run.sh $(FUZZ_DIR) $$h || exit 1; \
	done
