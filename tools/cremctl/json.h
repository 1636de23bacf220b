/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal streaming JSON writer for cremctl's -j output.
 */
#ifndef CREMCTL_JSON_H
#define CREMCTL_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *out;
	bool pretty;
	int depth;
	bool has_member[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *out, bool pretty);
/* @key is NULL inside arrays and for the outermost value. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_string(struct json *j, const char *key, const char *value);
void json_u64(struct json *j, const char *key, uint64_t value);
/* Ends the document with a newline. */
void json_finish(struct json *j);

#endif /* CREMCTL_JSON_H */
