#!/bin/sh
# The writer's scenarios, in every layout, read back by lttv-text; the
# stored sample traces equal what their recorded commands make.
exec sh "$(dirname "$0")/writer/check-scenarios.sh"
