# lttv-diff: compare two traces (two runs of one workload), a client of
# libltttrace's analyses.
LTTV_DIFF_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard lttv-diff/*.c))
EXTRA_CFLAGS_lttv-diff = $(GLIB_CFLAGS)

$(BIN)/lttv-diff: $(LTTV_DIFF_OBJS) $(TOOL_LINK_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $(LTTV_DIFF_OBJS) $(TOOL_LINK) $(POPT_LIBS) -lm

all: $(BIN)/lttv-diff
INSTALL_BINS += $(BIN)/lttv-diff
