// SPDX-License-Identifier: GPL-2.0
/*
 * A small streaming JSON writer: containers, keys and scalar values are
 * written as they come, the writer adding the commas, and with pretty the
 * newlines and four-space indentation.  Closing the outermost container
 * ends the line, so that a document (or, for monitor, each event) is one
 * line of its own.  Strings are escaped as RFC 8259 asks: quote,
 * backslash and control characters; a byte that is not part of a valid
 * UTF-8 sequence becomes U+FFFD, so that the output is always valid.
 *
 * At the end, the kv_* helpers that sock show and the mrt commands print
 * an object's fields with: "key value" pairs on a line, or the members of
 * a JSON object.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <string.h>

#include "fabctl.h"

void json_init(struct json *j, FILE *f, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
	j->pretty = pretty;
}

static void json_newline(struct json *j)
{
	int i;

	fputc('\n', j->f);
	for (i = 0; i < j->depth; i++)
		fputs("    ", j->f);
}

/* Before a value or a key: the comma and the indentation it needs. */
static void json_sep(struct json *j)
{
	if (j->key) {
		j->key = false;
		return;
	}
	if (!j->depth)
		return;
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	if (j->pretty)
		json_newline(j);
}

static void json_begin(struct json *j, char c)
{
	json_sep(j);
	fputc(c, j->f);
	/* fabctl nests three deep; deeper would be a bug, kept in bounds */
	if (j->depth < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void json_end(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty && j->pretty)
		json_newline(j);
	fputc(c, j->f);
	if (!j->depth)
		fputc('\n', j->f);
}

void json_begin_array(struct json *j)
{
	json_begin(j, '[');
}

void json_end_array(struct json *j)
{
	json_end(j, ']');
}

void json_begin_object(struct json *j)
{
	json_begin(j, '{');
}

void json_end_object(struct json *j)
{
	json_end(j, '}');
}

/* The length of the valid UTF-8 sequence at s, or 0 if there is none. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF. */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

void json_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', f);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\b':
			fputs("\\b", f);
			break;
		case '\f':
			fputs("\\f", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(f, "\\u%04x", *s);
			} else if (*s < 0x80) {
				fputc(*s, f);
			} else {
				n = utf8_len(s);
				if (!n) {
					fputs("\\ufffd", f);
					break;
				}
				fwrite(s, 1, n, f);
				s += n;
				continue;
			}
			break;
		}
		s++;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	json_sep(j);
	json_escape(j->f, key);
	fputs(j->pretty ? ": " : ":", j->f);
	j->key = true;
}

void json_string(struct json *j, const char *s)
{
	json_sep(j);
	json_escape(j->f, s);
}

void json_u64(struct json *j, uint64_t v)
{
	json_sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

/* A number already formatted (fmt_ratio()'s decimals). */
void json_raw(struct json *j, const char *number)
{
	json_sep(j);
	fputs(number, j->f);
}

void json_null(struct json *j)
{
	json_sep(j);
	fputs("null", j->f);
}

void json_kv_string(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_kv_raw(struct json *j, const char *key, const char *number)
{
	json_key(j, key);
	json_raw(j, number);
}

void json_kv_null(struct json *j, const char *key)
{
	json_key(j, key);
	json_null(j);
}

void kv_str(struct kv_out *o, const char *key, const char *v)
{
	if (o->fc->json) {
		json_kv_string(o->j, key, v);
		return;
	}
	fprintf(o->fc->out, "%s%s %s", o->first ? "" : " ", key, v);
	o->first = false;
}

void kv_u64(struct kv_out *o, const char *key, uint64_t v)
{
	char buf[24];

	if (o->fc->json) {
		json_kv_u64(o->j, key, v);
		return;
	}
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	kv_str(o, key, buf);
}

void kv_ratio(struct kv_out *o, const char *key, uint64_t q, uint64_t one)
{
	char buf[32];

	fmt_ratio(buf, sizeof(buf), q, one);
	if (o->fc->json)
		json_kv_raw(o->j, key, buf);
	else
		kv_str(o, key, buf);
}

void kv_none(struct kv_out *o, const char *key)
{
	if (o->fc->json)
		json_kv_null(o->j, key);
	else
		kv_str(o, key, "-");
}
