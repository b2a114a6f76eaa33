#!/bin/sh
# qemu/rootfs/workload.sh WORK_DIR [SCALE [JOBS]] - the field guest's
# workload (issue 28): programs no one here wrote, on Debian's userland,
# bounded and repeatable, both CPUs busy, disk and loopback network. SCALE
# (1) multiplies the loop counts; SCALE 0 is the short run kept in
# traces/field-workload (qemu/record-field-trace.sh: a trace of a few
# MiB): every step, each smaller (make -jJOBS of four of zlib's objects
# and no make test, a tenth of the rows and of dd, one single insert,
# /usr/include/linux for /usr/include, curl once each of those four
# files, compileall on json for email); configure is the same. JOBS (2)
# is make's -j (1: the one change between two runs for lttv-diff, issue
# 28 item 6). Run by qemu/rootfs/field-run.sh under
# books.py; every child is waited for, so the kernel's books of the
# reaped tree (wait4's rusage, /proc/self/io) cover all of it.
#   1. zlib from Debian's source package (/opt/src): ./configure --static,
#      make -jJOBS, make test;
#   2. at once, on the two CPUs:
#      a. sqlite3: inserts in transactions, an index, queries, on the disk;
#         dd and gzip of files on the disk, gunzip and compare;
#      b. python3's http.server on 127.0.0.1 and curl fetching files from
#         it; python3 -m compileall on a copy of the email package.
set -eu
W=${1:?usage: workload.sh WORK_DIR [SCALE [JOBS]]}
S=${2:-1}
J=${3:-2}
if [ "$S" = 0 ]; then
	rows=2000 inserts=1 dd_blocks=16 tree=/usr/include/linux fetches=1 pkg=json
	objs="adler32.o crc32.o compress.o zutil.o" served="adler32.c crc32.c compress.c zutil.c"
else
	rows=$((20000 * S)) inserts=$((10 * S)) dd_blocks=$((128 * S)) tree=/usr/include
	fetches=$((4 * S)) pkg=email objs='' served='*.c'
fi
step() { echo "workload: $* ($(cut -d' ' -f1 /proc/uptime) s)"; }
rm -rf "$W"
mkdir -p "$W"
cd "$W"

step "zlib: configure, make -j$J ${objs:-and make test}"
cp -a /opt/src/zlib-* zlib
# the static library and its tests only, at -O1: gcc under TCG is slow
# (the shared objects too, at zlib's -O3, took 8 minutes on a loaded host)
# shellcheck disable=SC2086 # the list of objects
(cd zlib && CFLAGS=-O1 ./configure --static >../configure.log 2>&1 &&
	make -j"$J" $objs >../make.log 2>&1 && { [ -n "$objs" ] || make test >../make-test.log 2>&1; })

step "sqlite, dd and gzip | http.server, curl and compileall"
(
	sqlite3 db.sqlite <<-SQL
	CREATE TABLE t (id INTEGER PRIMARY KEY, k INTEGER, v TEXT);
	BEGIN;
	WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
	INSERT INTO t (k, v) SELECT (i * 7919) % 1000, printf('row %08d', i) FROM n;
	COMMIT;
	CREATE INDEX tk ON t (k);
	SELECT k, count(*), min(v) FROM t GROUP BY k ORDER BY k LIMIT 3;
	SELECT count(*) FROM t WHERE v LIKE '%77%';
	SQL
	i=0
	while [ $i -lt $inserts ]; do
		i=$((i + 1))
		sqlite3 db.sqlite "INSERT INTO t (k, v) VALUES ($i, 'more $i'); SELECT count(*) FROM t WHERE k = $i;" >/dev/null
	done
	dd if=/dev/zero of=zero.bin bs=64k count=$dd_blocks 2>/dev/null
	tar -cf include.tar "$tree" 2>/dev/null
	for f in zero.bin include.tar; do
		gzip -6 -c "$f" >"$f.gz"
		gzip -d -c "$f.gz" | cmp - "$f"
	done
	sync
) >sqlite.log 2>&1 &
a=$!
(
	mkdir www
	# shellcheck disable=SC2086 # $served may be the glob *.c
	for f in $served; do cp /opt/src/zlib-*/$f www/; done
	python3 -m http.server 8080 --bind 127.0.0.1 --directory www >http.log 2>&1 &
	h=$!
	n=0
	until curl -s -o /dev/null http://127.0.0.1:8080/; do
		n=$((n + 1)); [ $n -lt 100 ] || exit 1; sleep 0.1
	done
	i=0
	while [ $i -lt $fetches ]; do
		i=$((i + 1))
		for f in www/*.c; do
			curl -s -o "got-$(basename "$f")" "http://127.0.0.1:8080/$(basename "$f")"
		done
	done
	for f in www/*.c; do cmp "$f" "got-$(basename "$f")"; done
	kill $h
	wait $h || true
	cp -a "/usr/lib/python3.11/$pkg" "$pkg"
	python3 -m compileall -q -f "$pkg"
) >http-python.log 2>&1 &
b=$!
wait $a
wait $b
step "done"
