// toml++ header-only, without exceptions: parse errors come back in `parse_result`.
#define TOML_EXCEPTIONS 0
#define TOML_ENABLE_FORMATTERS 0
#include <toml++/toml.h>

#include <string>
#include <vector>

#include "CTOMLPlusPlus.h"

struct ctoml_document {
    toml::parse_result result;
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
    auto *document = new ctoml_document{toml::parse(std::string_view(text, length))};
    if (document->result) {
        flatten(document->result.table(), nullptr, document->values);
    } else {
        const toml::parse_error &error = document->result.error();
        document->error = std::string(error.description());
        document->error_line = error.source().begin.line;
        document->error_column = error.source().begin.column;
    }
    return document;
}

const char *ctoml_document_error(const ctoml_document *document, uint32_t *line, uint32_t *column) {
    if (document->result) return nullptr;
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
