# genevent: kernel tracing functions generated from the facility XML.
EXTRA_CFLAGS_genevent = $(GLIB_CFLAGS)

GENEVENT_OBJS := $(OBJ)/genevent/genevent.o $(OBJ)/genevent/names.o

$(BIN)/genevent: $(GENEVENT_OBJS) $(LIBLTT_A)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_LDFLAGS) -o $@ $(GENEVENT_OBJS) $(LTT_LINK) $(POPT_LIBS)

all: $(BIN)/genevent

# test_genevent compiles the generated functions against a test double of
# the kernel headers (tests/genevent-shim).
GENEVENT_TEST_DIR := $(OBJ)/genevent-test
# (a facility's files are named after it: kernel_arch_x86_64.xml gives
# ltt-facility-kernel_arch.h)
GENEVENT_FACILITIES := fs kernel kernel_arch process statedump user_generic
GENEVENT_XML := $(patsubst %,facilities/%.xml,$(patsubst kernel_arch,kernel_arch_x86_64,$(GENEVENT_FACILITIES)))
GENEVENT_TEST_OUT := $(GENEVENT_FACILITIES:%=$(GENEVENT_TEST_DIR)/linux/ltt/ltt-facility-%.h)

$(GENEVENT_TEST_OUT) &: $(BIN)/genevent $(GENEVENT_XML)
	$(BIN)/genevent -o $(GENEVENT_TEST_DIR)/linux/ltt $(GENEVENT_XML)

$(OBJ)/tests/unit/test_genevent.o: $(GENEVENT_TEST_OUT)
$(OBJ)/tests/unit/test_genevent.o: EXTRA_CFLAGS_tests += -Itests/genevent-shim \
	-I$(GENEVENT_TEST_DIR) -I$(GENEVENT_TEST_DIR)/linux/ltt -Wno-missing-prototypes \
	$(foreach f,FS KERNEL KERNEL_ARCH PROCESS STATEDUMP USER_GENERIC,-DCONFIG_LTT_FACILITY_$(f))
INSTALL_BINS += $(BIN)/genevent
