/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - the command line: options, usage text, version. */
#ifndef RELAYTOP_CLI_H
#define RELAYTOP_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"

#define RELAYTOP_VERSION "1.0"

/*
 * Parse argv into o (defaults first).  Returns 0, or -1 with err saying
 * what is wrong with which option.
 */
int cli_parse(int argc, char *const argv[], struct options *o, char *err,
	      size_t errlen);
void cli_usage(FILE *out);
void cli_version(FILE *out);

#endif /* RELAYTOP_CLI_H */
