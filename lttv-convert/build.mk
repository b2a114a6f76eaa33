# lttv-convert: export to other formats (CTF 1.8).
LTTV_CONVERT_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard lttv-convert/*.c))
EXTRA_CFLAGS_lttv-convert = $(GLIB_CFLAGS)

$(BIN)/lttv-convert: $(LTTV_CONVERT_OBJS) $(TOOL_LINK_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $(LTTV_CONVERT_OBJS) $(TOOL_LINK) $(POPT_LIBS)

all: $(BIN)/lttv-convert
INSTALL_BINS += $(BIN)/lttv-convert
