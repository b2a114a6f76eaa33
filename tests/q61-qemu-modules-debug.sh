#!/bin/sh
# The tracer's modules on the debug kernel (lockdep, KASAN, full
# preemption, kmemleak; no tracer built in: `make modtest-kernel`):
# tests/modules-suite.sh with LTT_PLATFORM=modtest.
exec env LTT_PLATFORM=modtest sh "$(dirname "$0")/modules-suite.sh"
