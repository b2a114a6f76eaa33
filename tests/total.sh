#!/bin/sh
# Adds up the counts files that tests/run.sh left and prints the closing line.
pass=0 fail=0 skipped=0
for f in "$@"; do
	if [ ! -r "$f" ]; then
		echo "total: no counts in $f (that run did not finish)"; fail=$((fail + 1)); continue
	fi
	read -r p x s <"$f"
	pass=$((pass + p)); fail=$((fail + x)); skipped=$((skipped + s))
done
if [ "$skipped" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skipped skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
