#pragma once
/// JSON as Python's json module writes it (and transformers reads it back).
#include <string>
#include <string_view>
#include <vector>

namespace posenc::formats {

/// Python's json writes the bare literals NaN, Infinity and -Infinity, which strict JSON has not
/// (Nemotron-H's config.json holds `"time_step_limit": [0.0, Infinity]`). Returns `text` with each
/// such literal that stands as a value outside strings replaced by a JSON string: U+E000 (a
/// private-use character) followed by the literal, so that a strict parser reads the file and a
/// reader of the field finds a string it can name (nonfinite_literal). Other text is unchanged.
/// `replaced`, when given, receives the byte offset in `text` of each literal replaced (each
/// makes the result 5 bytes longer: two quotes and U+E000), so that a parser's offsets in the
/// result can be told in `text` (original_offset).
std::string python_json_literals(std::string_view text, std::vector<std::size_t>* replaced = nullptr);

/// The offset in the original text of byte `offset` of python_json_literals' result.
std::size_t original_offset(std::size_t offset, const std::vector<std::size_t>& replaced);

/// "NaN", "Infinity" or "-Infinity" when `s` is a literal python_json_literals replaced, else "".
std::string_view nonfinite_literal(std::string_view s);

}  // namespace posenc::formats
