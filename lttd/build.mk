# lttd/build.mk - lttd and lttctl, the LTT daemon and control tool.
#
# Both are linked statically so that the QEMU busybox guest runs them as
# they are; under SANITIZE=1 (build-san/) they are linked dynamically,
# since ASan does not support static binaries.

LTTD_OBJS := $(OBJ)/lttd/lttd.o $(OBJ)/lttd/copy.o $(OBJ)/lttd/stats.o \
	$(OBJ)/lttd/relay.o
# lttctl shares the viewers' lookup of the facility catalogue (GLib-free)
LTTCTL_OBJS := $(OBJ)/lttd/lttctl.o $(OBJ)/lttd/ctl.o $(OBJ)/lttd/ctl-socket.o \
	$(OBJ)/libltttrace/src/facilities-dir.o

ifeq ($(SANITIZE),1)
LTTD_STATIC :=
else
LTTD_STATIC := -static
endif

all: $(BIN)/lttd $(BIN)/lttctl
tests: $(BUILD)/tests/test_lttd_copy $(BUILD)/tests/test_lttd_ctl \
	$(BUILD)/tests/lttd-fakerelay $(BUILD)/tests/lttctl-fakekernel

$(BIN)/lttd: $(LTTD_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) $(LTTD_STATIC) -o $@ $^ $(POPT_LIBS) -pthread

$(BIN)/lttctl: $(LTTCTL_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) $(LTTD_STATIC) -o $@ $^ $(POPT_LIBS)

# The copy loop against a fake channel: no kernel needed.
$(BUILD)/tests/test_lttd_copy: $(OBJ)/tests/unit/test_lttd_copy.o \
		$(OBJ)/lttd/copy.o $(OBJ)/lttd/stats.o
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $^ -pthread

# lttctl's validation and netlink exchange against a fake kernel.
$(BUILD)/tests/test_lttd_ctl: $(OBJ)/tests/unit/test_lttd_ctl.o $(OBJ)/lttd/ctl.o \
		$(OBJ)/lttd/ctl-socket.o
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $^

# Test only: the whole lttd over file-backed fake channels (fake-relay.c),
# for tests/t20-lttd.sh.  Not named test_*: it is not a TAP program.
$(BUILD)/tests/lttd-fakerelay: $(OBJ)/lttd/lttd.o $(OBJ)/lttd/copy.o \
		$(OBJ)/lttd/stats.o $(OBJ)/lttd/fake-relay.o
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $^ $(POPT_LIBS) -pthread

# Test only: lttctl talking to a fake kernel (fake-kernel.c), for the
# one-shot form in tests/t21-lttctl.sh.
$(BUILD)/tests/lttctl-fakekernel: $(OBJ)/lttd/lttctl.o $(OBJ)/lttd/ctl.o \
		$(OBJ)/lttd/fake-kernel.o $(OBJ)/libltttrace/src/facilities-dir.o
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $^ $(POPT_LIBS)
INSTALL_BINS += $(BIN)/lttd $(BIN)/lttctl
