# lttv-gtk: the GTK 3 viewer (control flow, resources) and its display-less
# export (--export FILE.png|svg). The drawing (draw.c) is shared by both.
GTK_CFLAGS = $(shell $(PKG_CONFIG) --cflags gtk+-3.0)
GTK_LIBS = $(shell $(PKG_CONFIG) --libs gtk+-3.0)
LTTV_GTK_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard lttv-gtk/*.c))
EXTRA_CFLAGS_lttv-gtk = $(GTK_CFLAGS)

$(BIN)/lttv-gtk: $(LTTV_GTK_OBJS) $(TOOL_LINK_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $(LTTV_GTK_OBJS) $(TOOL_LINK) $(GTK_LIBS) -lm

all: $(BIN)/lttv-gtk
INSTALL_BINS += $(BIN)/lttv-gtk
