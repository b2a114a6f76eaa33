# make fuzz: build the libFuzzer harnesses with clang (ASan + UBSan) into
# build-fuzz/ and run each for FUZZ_SECONDS, seeded from traces/ and
# facilities/. A crash stops the run and leaves the input in build-fuzz/.
FUZZ_SECONDS ?= 60
FUZZ_DIR := build-fuzz
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -Ilibltttrace/include \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DLTT_FACILITIES_DIR='"$(CURDIR)/facilities"'

$(FUZZ_DIR)/core-xml.c: facilities/core.xml
	@mkdir -p $(dir $@)
	$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR)/tmp $(FUZZ_DIR)/tmp/obj/libltttrace/core-xml.c
	cp $(FUZZ_DIR)/tmp/obj/libltttrace/core-xml.c $@

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(LIBLTT_SRCS) $(FUZZ_DIR)/core-xml.c
	clang $(FUZZ_CFLAGS) $(GLIB_CFLAGS) -o $@ $< $(LIBLTT_SRCS) $(FUZZ_DIR)/core-xml.c $(GLIB_LIBS)

.PHONY: fuzz-build
fuzz-build: $(FUZZ_DIR)/fuzz_trace $(FUZZ_DIR)/fuzz_description

fuzz: fuzz-build
	@mkdir -p $(FUZZ_DIR)/corpus-trace $(FUZZ_DIR)/corpus-description
	@find traces -type f -name '*_[0-9]*' -size -1M -exec cp {} $(FUZZ_DIR)/corpus-trace/ \; 2>/dev/null; true
	@cp facilities/*.xml tests/facilities/*.xml $(FUZZ_DIR)/corpus-description/
	cd $(FUZZ_DIR) && ./fuzz_trace -max_total_time=$(FUZZ_SECONDS) -max_len=65536 corpus-trace
	cd $(FUZZ_DIR) && ./fuzz_description -max_total_time=$(FUZZ_SECONDS) corpus-description
