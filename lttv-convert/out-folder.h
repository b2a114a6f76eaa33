/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out-folder.h - the CTF folder written whole, or not at all. */
#ifndef LTTV_CONVERT_OUT_FOLDER_H
#define LTTV_CONVERT_OUT_FOLDER_H

/*
 * The folder to write the CTF trace of `out` into: a new one beside it
 * (in the same parent, so that a rename puts it in place). NULL, said on
 * stderr, if out cannot be used: it is not a folder, or a folder not
 * empty and `replace` not given (a conversion into it would leave its
 * other streams, and CTF readers would read them), or, to replace, not a
 * CTF trace (no metadata file: we replace only what we could have
 * written).
 */
char *out_folder_begin(const char *out, int replace);
/* Puts tmp in place of out (out's old content removed); 0, or -1 said on
 * stderr (then out is as it was and tmp removed). */
int out_folder_commit(const char *tmp, const char *out);
/* Removes tmp (a failed conversion): out stays as it was. */
void out_folder_abandon(const char *tmp);

#endif
