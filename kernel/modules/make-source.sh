#!/bin/sh
# make-source.sh OUT [VERSION] - the source tree of the LTT modules for an
# unpatched kernel, made from kernel/patches/ (the one home of the code):
#   - the files the series adds (the tracer, relayfs, their headers) are
#     taken out of the patches with filterdiff and applied to an empty
#     folder, in series order;
#   - the compatibility layer (ltt-compat.h, ltt-compat.c, tracepoints.h),
#     copied;
#   - per module of modules.list, a main file that calls the parts'
#     initcalls in the built-in order and undoes their set-up at unload;
#   - a Kbuild whose CONFIG_ options are those of kernel/config-fragment,
#     less what only a patched kernel can have (see NOT_MODULAR);
#   - dkms.conf (for the ltt-modules-dkms package).
# Build it with: make -C /lib/modules/KVER/build M=OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:?usage: make-source.sh OUT [VERSION]}
version=${2:-$(sed -n 's/^.define LTTTRACE_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
	"$top/libltttrace/include/ltttrace-version.h" | paste -sd.)}

# Options that need the kernel itself patched: system calls and the hooks
# in fork/exec/exit (0009), markers (0008), boot-time self-tests.
NOT_MODULAR='LTT_USERSPACE_SYSCALLS|LTT_SELFTEST|MARK[A-Z_]*'

command -v filterdiff >/dev/null || { echo "make-source.sh: filterdiff (patchutils) is missing" >&2; exit 2; }
# one writer at a time (make check and a benchmark may ask at once)
mkdir -p "$(dirname "$out")"
exec 9>"$out.lock"
flock 9
rm -rf "$out.new"
mkdir -p "$out.new"
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	filterdiff -i '*/kernel/ltt/*.[ch]' -i '*/fs/relayfs/*.c' \
		-i '*/include/linux/ltt*' -i '*/include/linux/relayfs_fs.h' \
		-i '*/include/uapi/linux/ltt-abi.h' -i '*/arch/x86/include/asm/ltt.h' \
		"$top/kernel/patches/$p" | (cd "$out.new" && patch -p1 -s --no-backup-if-mismatch) ||
		{ echo "make-source.sh: $p does not apply to the module sources" >&2; exit 1; }
done <"$top/kernel/patches/series"
# The system calls need the syscall tables and signal_struct's field
# (0009): not built here; the door of 0010 serves user space instead.
rm -f "$out.new/kernel/ltt/ltt-syscall.c"
cp "$here/ltt-compat.h" "$here/ltt-compat.c" "$here/tracepoints.h" "$out.new/"

defines=$(sed -n 's/^CONFIG_\(LTT[A-Z_]*\|RELAYFS_FS\)=y$/\1/p' "$top/kernel/config-fragment" |
	grep -Ev "^($NOT_MODULAR)\$" | sed 's/^/-DCONFIG_/; s/$/=1/' | tr '\n' ' ')

# initcall level of the built-in kernel (include/linux/init.h)
level_of() {
	case $1 in
	early) echo 0 ;; core) echo 1 ;; postcore) echo 2 ;; arch) echo 3 ;;
	subsys) echo 4 ;; fs) echo 5 ;; device) echo 6 ;; late) echo 7 ;;
	late_sync) echo 8 ;; *) echo "make-source.sh: unknown initcall $1" >&2; exit 1 ;;
	esac
}

{
	echo "# Kbuild of the LTT modules, written by kernel/modules/make-source.sh"
	echo "ccflags-y := -I\$(src)/include -I\$(src)/include/uapi -I\$(src)/arch/x86/include \\"
	echo "	-include \$(src)/ltt-compat.h $defines"
} >"$out.new/Kbuild"

grep -v '^#' "$here/modules.list" | while read -r mod needs objs; do
	[ -n "$mod" ] || continue
	main=ltt-modmain-$mod
	# every initcall of the module's files: level, order, function
	n=0
	calls=$(for o in $objs; do
		n=$((n + 1))
		sed -n 's/^\([a-z_]*\)_initcall\(_sync\)\{0,1\}(\([A-Za-z0-9_]*\));$/\1\2 \3/p' \
			"$out.new/$o.c" | while read -r lvl fn; do
			echo "$(level_of "$lvl") $n $fn"
		done
	done | sort -n -k1,1 -k2,2 -s | awk '{print $3}')
	{
		echo "// SPDX-License-Identifier: GPL-2.0"
		echo "/* $mod: written by kernel/modules/make-source.sh from modules.list */"
		echo "#include <linux/module.h>"
		echo
		for fn in $calls; do
			# weak: an initcall under an option this build has not is absent
			echo "int ltt_compat_init_$fn(void) __weak;"
		done
		echo
		echo "static int __init ${mod}_module_init(void)"
		echo "{"
		echo "	int err = 0;"
		echo
		echo "	ltt_compat_initializing = true;"
		[ "$mod" = ltt_core ] && echo "	err = ltt_compat_tracepoints();"
		for fn in $calls; do
			echo "	if (!err && ltt_compat_init_$fn)"
			echo "		err = ltt_compat_init_$fn();"
		done
		echo "	ltt_compat_initializing = false;"
		echo "	if (err)"
		echo "		ltt_compat_undo_all();"
		echo "	return err;"
		echo "}"
		echo "module_init(${mod}_module_init);"
		echo
		echo "static void __exit ${mod}_module_exit(void)"
		echo "{"
		echo "	ltt_compat_undo_all();"
		echo "}"
		echo "module_exit(${mod}_module_exit);"
		echo
		echo "MODULE_LICENSE(\"GPL\");"
		echo "MODULE_DESCRIPTION(\"Linux Trace Toolkit: $mod (from kernel/patches)\");"
		echo "MODULE_VERSION(\"$version\");"
	} >"$out.new/$main.c"
	# the core, a module that uses the core's registries, or neither (relayfs)
	case ",$needs," in
	*,ltt_core,*) scope=LTT_COMPAT_OUTSIDE_CORE ;;
	*) if [ "$mod" = ltt_core ]; then scope=LTT_COMPAT_CORE; else scope=LTT_COMPAT_ALONE; fi ;;
	esac
	# one copy per module: each has its own undo log ($scope from Kbuild)
	echo '#include "ltt-compat.c"' >"$out.new/ltt-compat-$mod.c"
	{
		echo
		echo "obj-m += $mod.o"
		printf '%s-y := %s ltt-compat-%s.o %s.o\n' "$mod" \
			"$(for o in $objs; do printf '%s.o ' "$o"; done)" "$mod" "$main"
		for o in $objs ltt-compat-$mod $main; do
			echo "CFLAGS_$o.o += -D$scope"
		done
	} >>"$out.new/Kbuild"
done

{
	sed -e "s/@VERSION@/$version/" "$here/dkms.conf.in"
	i=0
	grep -v '^#' "$here/modules.list" | while read -r mod needs objs; do
		[ -n "$mod" ] || continue
		echo "BUILT_MODULE_NAME[$i]=\"$mod\""
		echo "DEST_MODULE_LOCATION[$i]=\"/updates/dkms\""
		i=$((i + 1))
	done
} >"$out.new/dkms.conf"
cp "$here/README.md" "$out.new/README.md"
rm -rf "$out"
mv "$out.new" "$out"
