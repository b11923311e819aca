#ifndef CTOMLPLUSPLUS_H
#define CTOMLPLUSPLUS_H

// A C view of toml++'s parser for Swift: parse a document, walk its values as one flat
// array in document order, free everything with one call.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CTOML_TABLE,
    CTOML_ARRAY,
    CTOML_STRING,
    CTOML_INTEGER,
    CTOML_FLOAT,
    CTOML_BOOLEAN,
    /// A date, a time or a date-time (the config has no use for their values).
    CTOML_DATE_TIME,
} ctoml_type;

/// One value. A table's `count` members, each with its `key`, and an array's `count`
/// elements follow it directly, each with everything under it (pre-order).
typedef struct {
    const char *key;       // a table member's key (UTF-8), NULL otherwise
    size_t key_length;
    const char *string;    // CTOML_STRING (UTF-8)
    size_t string_length;
    int64_t integer;       // CTOML_INTEGER
    double floating;       // CTOML_FLOAT
    size_t count;          // CTOML_TABLE, CTOML_ARRAY
    ctoml_type type;
    bool boolean;          // CTOML_BOOLEAN
} ctoml_value;

typedef struct ctoml_document ctoml_document;

/// Parses `length` bytes of UTF-8. Always returns a document (free it with
/// `ctoml_document_free`), which holds either the values or the syntax error.
ctoml_document *ctoml_parse(const char *text, size_t length);

/// The syntax error's description and where it begins (from 1), or NULL when the text parsed.
const char *ctoml_document_error(const ctoml_document *document, uint32_t *line, uint32_t *column);

/// The values, the root table first; NULL (and 0) after a syntax error.
const ctoml_value *ctoml_document_values(const ctoml_document *document, size_t *count);

void ctoml_document_free(ctoml_document *document);

#ifdef __cplusplus
}
#endif

#endif
