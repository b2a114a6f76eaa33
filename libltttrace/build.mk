# libltttrace: the trace reading library, static and shared, plus
# ltt-checksum (prints the checksum of facility descriptions).

LIBLTT_SRCS := $(wildcard libltttrace/src/*.c)
LIBLTT_OBJS := $(LIBLTT_SRCS:%.c=$(OBJ)/%.o) $(OBJ)/libltttrace/core-xml.o
LIBLTT_A := $(LIB)/libltttrace.a
LIBLTT_SO := $(LIB)/libltttrace.so
PREFIX ?= /usr/local
# where the library looks for facility XML when a trace lacks eventdefs/;
# the source tree's folder by default, so that a build works in place
FACILITIES_DIR ?= $(CURDIR)/facilities

EXTRA_CFLAGS_libltttrace = $(GLIB_CFLAGS) \
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
	$(CC) $(BASE_CFLAGS) $(CFLAGS) -c $< -o $@

$(LIBLTT_A): $(LIBLTT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIBLTT_SO): $(LIBLTT_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,-soname,libltttrace.so.0 $(BASE_LDFLAGS) -o $@ $^ $(GLIB_LIBS)

$(LIB)/pkgconfig/ltttrace.pc: libltttrace/ltttrace.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(PREFIX)|' $< > $@

LTT_LINK = $(LIBLTT_A) $(GLIB_LIBS)

$(BIN)/ltt-checksum: $(OBJ)/libltttrace/tools/ltt-checksum.o $(LIBLTT_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(LTT_LINK)

all: $(LIBLTT_A) $(LIBLTT_SO) $(LIB)/pkgconfig/ltttrace.pc $(BIN)/ltt-checksum

.PHONY: install
install: all
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/ltt/facilities
	install -m 644 $(LIBLTT_A) $(LIBLTT_SO) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(LIB)/pkgconfig/ltttrace.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 libltttrace/include/ltttrace.h libltttrace/include/ltttrace-state.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 facilities/*.xml $(DESTDIR)$(PREFIX)/share/ltt/facilities/
	install -m 755 $(wildcard $(BIN)/*) $(DESTDIR)$(PREFIX)/bin/
