# The trace writer (tests/writer/): libltt-writer.a and ltt-tracegen.
#
# The writer shares no decoding code with libltttrace; ltt-tracegen links
# the library only for ltt_description_load() and
# ltt_description_checksum(), the one home of the checksum.  Event ids come
# from the XML files themselves (gen-event-ids.sh), in file order.

WRITER_OBJS := $(OBJ)/tests/writer/ltt-writer.o $(OBJ)/tests/writer/ltt-writer-bad.o
WRITER_A := $(LIB)/libltt-writer.a
WRITER_IDS := $(OBJ)/tests/writer/lttw-event-ids.h
WRITER_XML := $(wildcard facilities/*.xml) $(wildcard tests/facilities/*.xml)

EXTRA_CFLAGS_tests += -Itests/writer -I$(OBJ)/tests/writer $(GLIB_CFLAGS)

$(WRITER_A): $(WRITER_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(WRITER_IDS): tests/writer/gen-event-ids.sh $(WRITER_XML)
	@mkdir -p $(dir $@)
	sh tests/writer/gen-event-ids.sh $(WRITER_XML) > $@.tmp && mv $@.tmp $@

$(OBJ)/tests/writer/ltt-tracegen.o: $(WRITER_IDS)

$(BIN)/ltt-tracegen: $(OBJ)/tests/writer/ltt-tracegen.o $(WRITER_A) $(LIBLTT_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(WRITER_A) $(LTT_LINK) $(POPT_LIBS)

# ltt-reencode: the writer's rules against a trace, byte for byte (it reads
# the trace and its descriptions with libltttrace, lays out with the writer)
$(BIN)/ltt-reencode: $(OBJ)/tests/writer/ltt-reencode.o $(WRITER_A) $(LIBLTT_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(WRITER_A) $(LTT_LINK)

all: $(WRITER_A) $(BIN)/ltt-tracegen $(BIN)/ltt-reencode
