# kernel/modules/build.mk - the tracer as modules of Debian's own kernel.
#   make stock-modules    the module sources (make-source.sh) and the .ko
#                         files, built against linux-headers-LTT_STOCK_KVER
# The ABI defaults to the one scripts/install-deps.sh kernel pinned.
LTT_STOCK_CACHE ?= /var/cache/ltt
LTT_STOCK_KVER ?= $(shell cat $(LTT_STOCK_CACHE)/stock-kver 2>/dev/null)
STOCK_MODULES_SRC := $(BUILD)/stock-modules/src
STOCK_MODULES := $(BUILD)/stock-modules/$(LTT_STOCK_KVER)
MODULE_SOURCES := kernel/patches/series $(wildcard kernel/patches/*.patch) \
	$(wildcard kernel/modules/*) kernel/config-fragment

.PHONY: stock-modules module-source
module-source: $(STOCK_MODULES_SRC)/Kbuild
$(STOCK_MODULES_SRC)/Kbuild: $(MODULE_SOURCES)
	kernel/modules/make-source.sh $(STOCK_MODULES_SRC)

stock-modules: $(STOCK_MODULES)/.built
# built in a copy, so that each ABI has its own objects
$(STOCK_MODULES)/.built: $(STOCK_MODULES_SRC)/Kbuild
	@test -n "$(LTT_STOCK_KVER)" || { echo "no stock kernel chosen (scripts/install-deps.sh kernel)"; exit 1; }
	@test -d /usr/src/linux-headers-$(LTT_STOCK_KVER) || { echo "no linux-headers-$(LTT_STOCK_KVER) (scripts/install-deps.sh kernel)"; exit 1; }
	kernel/modules/build-modules.sh /usr/src/linux-headers-$(LTT_STOCK_KVER) \
		$(STOCK_MODULES_SRC) $(STOCK_MODULES)

# the same against the debug kernel of `make modtest-kernel` (tests/q61)
MODTEST_MODULES := $(BUILD)/modtest-modules
.PHONY: modtest-modules
modtest-modules: $(MODTEST_MODULES)/.built
$(MODTEST_MODULES)/.built: $(STOCK_MODULES_SRC)/Kbuild $(MODTEST_KERNEL_TREE)/Module.symvers
	kernel/modules/build-modules.sh $(MODTEST_KERNEL_TREE) $(STOCK_MODULES_SRC) $(MODTEST_MODULES)
