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
