# lttv-text: the text dumper, a thin client of libltttrace.
LTTV_TEXT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard lttv-text/*.c))
EXTRA_CFLAGS_lttv-text = $(GLIB_CFLAGS)

$(BIN)/lttv-text: $(LTTV_TEXT_OBJS) $(TOOL_LINK_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $(LTTV_TEXT_OBJS) $(TOOL_LINK) $(POPT_LIBS)

all: $(BIN)/lttv-text
INSTALL_BINS += $(BIN)/lttv-text
