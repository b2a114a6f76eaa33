# bash completion for the Linux Trace Toolkit's tools          -*- sh -*-
#
# Installed once per tool as DATADIR/bash-completion/completions/TOOL (the
# folder bash-completion loads a command's completion from).  The options
# and what each one takes come from the tool's own --help, so that they
# have one home: an option placeholder naming a folder (DIR, OUT, ROOT)
# completes folders, FILE, PATH and SCRIPT complete files; the tools that
# take facility descriptions as arguments complete *.xml.

declare -gA _ltt_help_cache 2>/dev/null || true

# The --help text of command $1, asked once per shell.
_ltt_help()
{
	if [[ -z ${_ltt_help_cache[$1]+set} ]]; then
		_ltt_help_cache[$1]=$(LC_ALL=C "$1" --help 2>&1 </dev/null)
	fi
	printf '%s\n' "${_ltt_help_cache[$1]}"
}

# The placeholder of option $2 in the help of $1 ("DIR" for -t in
# "-t, --trace=DIR"), or nothing when it takes no argument.
_ltt_option_arg()
{
	_ltt_help "$1" | grep -E -- "^ *(-[A-Za-z0-9?], *)?$2([ =,]|\$)" | head -n 1 |
		sed -nE 's/^ *(-[A-Za-z0-9?], *)?--[a-z0-9-]+[ =]([A-Z][A-Za-z0-9_.]*).*/\2/p'
}

_ltt_complete()
{
	local cmd=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev=""
	local arg

	(( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# --opt=value: bash splits it into "--opt" "=" "value"
	if [[ $cur == = ]]; then
		cur=""
	elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	[[ $cur == = ]] && cur=""
	if [[ $prev == -* ]]; then
		arg=$(_ltt_option_arg "$cmd" "$prev")
		if [[ -n $arg ]]; then
			case $arg in
			*DIR*|OUT|*ROOT*)
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
			FILE|PATH|SCRIPT)
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
			*)
				COMPREPLY=() ;;
			esac
			return 0
		fi
	fi
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$(_ltt_help "$cmd" |
			grep -oE -- '(^|[ ,])--?[A-Za-z0-9][a-z0-9-]*' |
			sed -E 's/^[ ,]//' | sort -u)" -- "$cur")
		return 0
	fi
	# arguments: facility descriptions for the tools that take them
	if _ltt_help "$cmd" | grep -q 'FACILITY\.xml'; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -X '!*.xml' -- "$cur"; compgen -d -- "$cur")
		return 0
	fi
	COMPREPLY=()
}

complete -F _ltt_complete lttv-text lttv-gtk lttv-convert lttv-diff genevent \
	ltt-checksum lttd lttctl
