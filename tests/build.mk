# Tests: the C unit tests (tests/unit/test_*.c, each one program printing
# TAP, built into $(BUILD)/tests/) and the tools they need.  `make test`
# builds them and runs tests/run.sh.

include tests/writer/build.mk

TEST_SRCS := $(wildcard tests/unit/test_*.c)
TEST_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRCS))

# Unit tests that also link the trace writer (list them here).
TESTS_WITH_WRITER := $(BUILD)/tests/test_writer $(BUILD)/tests/test_api $(BUILD)/tests/test_reader $(BUILD)/tests/test_genevent $(BUILD)/tests/test_state $(BUILD)/tests/test_hostile

.PHONY: tests
tests: $(TEST_BINS) $(BIN)/ltt-tracegen

# test_writer checks the writer's bytes by hand: it must not link the reader.
$(BUILD)/tests/test_writer: $(OBJ)/tests/unit/test_writer.o $(WRITER_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(WRITER_A)

$(filter-out $(BUILD)/tests/test_writer,$(TESTS_WITH_WRITER)): $(WRITER_A)

$(BUILD)/tests/test_%: $(OBJ)/tests/unit/test_%.o $(LIBLTT_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(filter $(WRITER_A),$^) $(LTT_LINK)

# test_usertrace also links libltt-usertrace (libltt-usertrace/build.mk)
$(BUILD)/tests/test_usertrace: $(OBJ)/tests/unit/test_usertrace.o $(WRITER_A) $(USERTRACE_A) $(LIBLTT_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $< $(WRITER_A) $(USERTRACE_A) $(LTT_LINK)

# test_analysis_later: test_analysis_sized, compiled against this header,
# linked with a library built from a later header whose every analysis
# result struct has one more member: what a program built today meets
# with a newer libltttrace (ltttrace.h, "Sized structs").
LATER_INC := $(BUILD)/tests/later-include
LATER_OBJS := $(LIBLTT_SRCS:%.c=$(OBJ)/later/%.o) $(OBJ)/libltttrace/core-xml.o
LATER_STRUCTS := ltt_latency ltt_latency_stats ltt_latency_group ltt_analysis_top_row ltt_path_segment

$(LATER_INC)/stamp: $(wildcard libltttrace/include/*.h) tests/build.mk
	@rm -rf $(LATER_INC) && mkdir -p $(LATER_INC)
	cp libltttrace/include/*.h $(LATER_INC)/
	for s in $(LATER_STRUCTS); do \
		sed -i "s/^} $$s;/\tuint64_t later_member[3];\n} $$s;/" $(LATER_INC)/ltttrace-analysis.h; \
	done
	@# every struct got its member, or the test would test less than it says
	test "$$(grep -c later_member $(LATER_INC)/ltttrace-analysis.h)" = $(words $(LATER_STRUCTS))
	@touch $@

$(OBJ)/later/%.o: %.c $(LATER_INC)/stamp
	@mkdir -p $(dir $@)
	$(CC) -I$(LATER_INC) $(BASE_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(EXTRA_CFLAGS_libltttrace) -MMD -MP -c $< -o $@

$(BUILD)/tests/test_analysis_later: $(OBJ)/tests/unit/test_analysis_sized.o $(LATER_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $^ $(GLIB_LIBS)

tests: $(BUILD)/tests/test_analysis_later

# test_ctf_meta reads the LTTng reader's private structures
$(OBJ)/tests/unit/test_ctf_meta.o: EXTRA_CFLAGS_tests += -Ilibltttrace/src $(GLIB_CFLAGS)
