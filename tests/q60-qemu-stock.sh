#!/bin/sh
# The tracer's modules on Debian's own kernel, unmodified: tests/modules-suite.sh
# with LTT_PLATFORM=stock (needs what scripts/install-deps.sh kernel
# installs and downloads; skips loudly without).
exec env LTT_PLATFORM=stock sh "$(dirname "$0")/modules-suite.sh"
