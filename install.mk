# install.mk - `make install`: what an installed Linux Trace Toolkit is.
#
#   make install [PREFIX=/usr/local] [DESTDIR=/scratch/root]
#                [BINDIR LIBDIR INCLUDEDIR DATADIR MANDIR]
#
# The tools (never a test tool), the shared library with its soname chain
# and the static one, pkg-config files, the public headers in
# INCLUDEDIR/ltt/, libltt-usertrace, the facility catalogue in
# DATADIR/ltt/facilities (where the installed tools look: facilities-dir.c),
# the desktop entry and icon of lttv-gtk, the man pages and bash
# completion.  tests/t70-install.sh checks the installed set file by file.

INSTALL ?= install
PUBLIC_HEADERS := libltttrace/include/ltttrace.h \
	libltttrace/include/ltttrace-state.h \
	libltttrace/include/ltttrace-analysis.h \
	libltttrace/include/ltttrace-version.h \
	include/ltt/ltt-abi.h \
	libltt-usertrace/include/ltt-usertrace.h
MAN1_PAGES := $(wildcard docs/man/*.1)
MAN3_PAGES := $(wildcard docs/man/*.3)
COMPLETION_DIR = $(DATADIR)/bash-completion/completions
ICON_DIR = $(DATADIR)/icons/hicolor/scalable/apps

.PHONY: install
install: all
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/ltt $(DESTDIR)$(FACILITIES_DIR) \
		$(DESTDIR)$(DATADIR)/applications $(DESTDIR)$(ICON_DIR) \
		$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(COMPLETION_DIR)
	$(INSTALL) -m 755 $(INSTALL_BINS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(LIB)/$(LIBLTT_REALNAME) $(DESTDIR)$(LIBDIR)/
	ln -sf $(LIBLTT_REALNAME) $(DESTDIR)$(LIBDIR)/$(LIBLTT_SONAME)
	ln -sf $(LIBLTT_SONAME) $(DESTDIR)$(LIBDIR)/libltttrace.so
	$(INSTALL) -m 644 $(LIBLTT_A) $(USERTRACE_A) $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 644 $(LIB)/pkgconfig/ltttrace.pc \
		$(LIB)/pkgconfig/ltt-usertrace.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	$(INSTALL) -m 644 $(PUBLIC_HEADERS) $(DESTDIR)$(INCLUDEDIR)/ltt/
	$(INSTALL) -m 644 facilities/*.xml $(DESTDIR)$(FACILITIES_DIR)/
	$(INSTALL) -m 644 lttv-gtk/lttv-gtk.desktop $(DESTDIR)$(DATADIR)/applications/
	$(INSTALL) -m 644 lttv-gtk/lttv-gtk.svg $(DESTDIR)$(ICON_DIR)/
	$(INSTALL) -m 644 $(MAN1_PAGES) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(MAN3_PAGES) $(DESTDIR)$(MANDIR)/man3/
	for t in $(notdir $(INSTALL_BINS)); do \
		$(INSTALL) -m 644 scripts/ltt-completion.bash \
			$(DESTDIR)$(COMPLETION_DIR)/$$t || exit 1; \
	done
	@# a real installation (not a staging DESTDIR): the loader's cache must
	@# know libltttrace.so.0 before a program linked against it can start
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then \
		echo ldconfig; ldconfig; \
	fi
