// toml++ header-only. Its internal checks (TOML_ASSERT) abort the process on some
// malformed files (toml++ 3.3: a `}` where an array expects a value), and with NDEBUG they
// become optimizer assumptions, so a bad file would be undefined behaviour: here a failed
// check throws instead, the parse unwinds (destructors run, nothing leaks) and the file is
// refused with a syntax error. Parse errors themselves are toml++'s exceptions.
#include <cassert>
#undef NDEBUG
#include <stdexcept>
namespace ctoml_detail {
struct internal_check_failed : std::logic_error {
    using std::logic_error::logic_error;
};
[[noreturn]] inline void check_failed(const char *expression) { throw internal_check_failed(expression); }
} // namespace ctoml_detail
#define TOML_ASSERT(expr) ((expr) ? static_cast<void>(0) : ::ctoml_detail::check_failed(#expr))
#define TOML_EXCEPTIONS 1
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include <string>
#include <vector>

#include "CTOMLPlusPlus.h"

struct ctoml_document {
    toml::table table;
    bool failed = false;
    std::string error;
    uint32_t error_line = 0, error_column = 0;
    std::vector<ctoml_value> values;
};

namespace {

void flatten(const toml::node &node, const toml::key *key, std::vector<ctoml_value> &values) {
    ctoml_value value{};
    if (key) {
        value.key = key->str().data();
        value.key_length = key->str().size();
    }
    switch (node.type()) {
    case toml::node_type::table:
        value.type = CTOML_TABLE;
        value.count = node.as_table()->size();
        values.push_back(value);
        for (auto &&[memberKey, member] : *node.as_table()) flatten(member, &memberKey, values);
        return;
    case toml::node_type::array:
        value.type = CTOML_ARRAY;
        value.count = node.as_array()->size();
        values.push_back(value);
        for (auto &&element : *node.as_array()) flatten(element, nullptr, values);
        return;
    case toml::node_type::string: {
        const std::string &text = node.as_string()->get();
        value.type = CTOML_STRING;
        value.string = text.data();
        value.string_length = text.size();
        break;
    }
    case toml::node_type::integer:
        value.type = CTOML_INTEGER;
        value.integer = node.as_integer()->get();
        break;
    case toml::node_type::floating_point:
        value.type = CTOML_FLOAT;
        value.floating = node.as_floating_point()->get();
        break;
    case toml::node_type::boolean:
        value.type = CTOML_BOOLEAN;
        value.boolean = node.as_boolean()->get();
        break;
    default:
        value.type = CTOML_DATE_TIME;
        break;
    }
    values.push_back(value);
}

} // namespace

extern "C" {

ctoml_document *ctoml_parse(const char *text, size_t length) {
    auto *document = new ctoml_document{};
    try {
        document->table = toml::parse(std::string_view(text, length));
        flatten(document->table, nullptr, document->values);
    } catch (const toml::parse_error &error) {
        document->failed = true;
        document->error = std::string(error.description());
        document->error_line = error.source().begin.line;
        document->error_column = error.source().begin.column;
    } catch (const ctoml_detail::internal_check_failed &check) {
        document->failed = true;
        document->error = std::string("the TOML parser stopped on a malformed construct (its check '") + check.what()
            + "' failed): look for a bracket, brace, comma or '=' out of place";
        document->error_line = 1;
        document->error_column = 1;
    }
    return document;
}

const char *ctoml_document_error(const ctoml_document *document, uint32_t *line, uint32_t *column) {
    if (!document->failed) return nullptr;
    *line = document->error_line;
    *column = document->error_column;
    return document->error.c_str();
}

const ctoml_value *ctoml_document_values(const ctoml_document *document, size_t *count) {
    *count = document->values.size();
    return document->values.empty() ? nullptr : document->values.data();
}

void ctoml_document_free(ctoml_document *document) { delete document; }

}
