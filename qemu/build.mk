# qemu/build.mk - `make qemu-test`: boot the patched kernel in QEMU (TCG,
# 2 CPUs), trace in the guest with lttctl and lttd, bring the traces out
# over 9p and decode them with lttv-text.  The assertions are in
# tests/q10-qemu-trace.sh, which runs the same thing under `make check`.

QEMU_TEST_OUT ?= $(BUILD)/qemu-test

.PHONY: qemu-test
qemu-test: all
	@$(MAKE) --no-print-directory kernel
	@BUILD=$(BUILD) qemu/run.sh $(QEMU_TEST_OUT)
	@cat $(QEMU_TEST_OUT)/results
	@for t in trace1 trace2 flight1 lossy lossy2 stress; do \
		echo "== $$t"; \
		$(BIN)/lttv-text -t $(QEMU_TEST_OUT)/$$t --cpu-stats --summary -q || exit 1; \
	done

# `make record-traces`: record again the real traces kept under traces/
# (qemu/record-traces.sh; traces/README says what each one is);
# TRACES=usertrace (or busybox) records only that one.
.PHONY: record-traces
record-traces: all
	@$(MAKE) --no-print-directory kernel
	@BUILD=$(BUILD) TRACES="$(TRACES)" qemu/record-traces.sh

# `make record-field-trace`: record again traces/field-workload, the field
# workload's short run on Debian's kernel with our modules, with the
# kernel's books and its digest (qemu/record-field-trace.sh; no kernel
# build: the modules are built against Debian's headers).
.PHONY: record-field-trace
record-field-trace: all
	@BUILD=$(BUILD) qemu/record-field-trace.sh

# `make demo-live`: boot our kernel in QEMU with a workload, and show its
# trace on the host while lttd writes it into the shared folder
# (qemu/demo-live.sh: lttv-gtk --follow, or pictures at the end without a
# display).
.PHONY: demo-live
demo-live: all
	@$(MAKE) --no-print-directory kernel
	@BUILD=$(BUILD) qemu/demo-live.sh

# `make field`: the whole field run of issue 28 (qemu/field-full.sh): our
# modules, LTTng 2.13 and ftrace on Debian's kernel around one real
# workload, the kernel's books and the three traces compared; results in
# $(BUILD)/field (books.txt, match.txt). make check runs a short version
# (tests/q62-qemu-field.sh).
.PHONY: field
field: all
	@BUILD=$(BUILD) qemu/field-full.sh $(BUILD)/field
