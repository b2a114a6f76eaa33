# libltttrace: the trace reading library, static and shared, plus
# ltt-checksum (prints the checksum of facility descriptions).

LIBLTT_SRCS := $(wildcard libltttrace/src/*.c)
LIBLTT_OBJS := $(LIBLTT_SRCS:%.c=$(OBJ)/%.o) $(OBJ)/libltttrace/core-xml.o
LIBLTT_A := $(LIB)/libltttrace.a
# The shared library: its real name carries the version, its soname the
# ABI (LIBLTT_ABI: raise it when a change breaks programs built before),
# and libltttrace.so is the name the linker looks for.
LIBLTT_ABI := 0
LIBLTT_SONAME := libltttrace.so.$(LIBLTT_ABI)
LIBLTT_REALNAME := libltttrace.so.$(LTT_VERSION)
LIBLTT_SO := $(LIB)/libltttrace.so

# Hidden by default: the shared library exports what ltttrace.h declares
# (its visibility pragma), nothing else.
EXTRA_CFLAGS_libltttrace = $(GLIB_CFLAGS) -fvisibility=hidden

# The installed catalogue's folder is compiled in (facilities-dir.c): it
# is rebuilt when the install folders change (install-dirs, Makefile).
$(OBJ)/libltttrace/src/facilities-dir.o: $(BUILD)/install-dirs
$(OBJ)/libltttrace/src/facilities-dir.o: EXTRA_CFLAGS_libltttrace += \
	-DLTT_FACILITIES_DIR='"$(FACILITIES_DIR)"'

# core.xml compiled in: the XML stays the only home of the core facility.
$(OBJ)/libltttrace/core-xml.c: facilities/core.xml libltttrace/build.mk
	@mkdir -p $(dir $@)
	@{ echo '/* generated from facilities/core.xml: do not edit */'; \
	   echo '#include <stddef.h>'; \
	   echo 'extern const char ltt_core_xml[];'; \
	   echo 'extern const size_t ltt_core_xml_len;'; \
	   echo 'const char ltt_core_xml[] ='; \
	   sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	   echo ';'; \
	   echo 'const size_t ltt_core_xml_len = sizeof(ltt_core_xml) - 1;'; } > $@
$(OBJ)/libltttrace/core-xml.o: $(OBJ)/libltttrace/core-xml.c
	$(CC) $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -fvisibility=hidden -c $< -o $@

$(LIBLTT_A): $(LIBLTT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIB)/$(LIBLTT_REALNAME): $(LIBLTT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,$(LIBLTT_SONAME) -Wl,--no-undefined \
		$(BASE_LDFLAGS) -o $@ $^ $(GLIB_LIBS)

# the chain as installed: libltttrace.so -> .so.0 -> .so.0.7.0
$(LIBLTT_SO): $(LIB)/$(LIBLTT_REALNAME)
	ln -sf $(LIBLTT_REALNAME) $(LIB)/$(LIBLTT_SONAME)
	ln -sf $(LIBLTT_SONAME) $@

$(LIB)/pkgconfig/ltttrace.pc: libltttrace/ltttrace.pc.in $(BUILD)/install-dirs Makefile
	$(make-pc)

# Tests and build tools link the static library; the installed tools too,
# unless LTT_TOOLS_LINK=shared (the Debian packages: libltttrace.so.0).
LTT_LINK = $(LIBLTT_A) $(GLIB_LIBS)
ifeq ($(LTT_TOOLS_LINK),shared)
TOOL_LINK_DEP = $(LIBLTT_SO)
TOOL_LINK = -L$(LIB) -lltttrace $(GLIB_LIBS)
else
TOOL_LINK_DEP = $(LIBLTT_A)
TOOL_LINK = $(LTT_LINK)
endif

$(BIN)/ltt-checksum: $(OBJ)/libltttrace/tools/ltt-checksum.o $(TOOL_LINK_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(TOOL_LINK)

all: $(LIBLTT_A) $(LIBLTT_SO) $(LIB)/pkgconfig/ltttrace.pc $(BIN)/ltt-checksum
INSTALL_BINS += $(BIN)/ltt-checksum
