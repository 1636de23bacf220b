// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>

#include "json.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	j->out = out;
	j->pretty = pretty;
	j->depth = 0;
	j->has_member[0] = false;
}

static void put_escaped(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* Separator, indentation and key before a new member of the container. */
static void member(struct json *j, const char *key)
{
	int i;

	if (j->has_member[j->depth])
		fputc(',', j->out);
	j->has_member[j->depth] = true;
	if (j->pretty && j->depth) {
		fputc('\n', j->out);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	if (key) {
		put_escaped(j->out, key);
		fputs(j->pretty ? ": " : ":", j->out);
	}
}

static void open_container(struct json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_member[j->depth] = false;
}

static void close_container(struct json *j, char c)
{
	bool had = j->has_member[j->depth];
	int i;

	if (j->depth)
		j->depth--;
	if (j->pretty && had) {
		fputc('\n', j->out);
		for (i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	fputc(c, j->out);
}

void json_object_begin(struct json *j, const char *key)
{
	open_container(j, key, '{');
}

void json_object_end(struct json *j)
{
	close_container(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	open_container(j, key, '[');
}

void json_array_end(struct json *j)
{
	close_container(j, ']');
}

void json_string(struct json *j, const char *key, const char *value)
{
	member(j, key);
	put_escaped(j->out, value);
}

void json_u64(struct json *j, const char *key, uint64_t value)
{
	member(j, key);
	fprintf(j->out, "%" PRIu64, value);
}

void json_finish(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}
