#pragma once
// A small XML well-formedness check for the SVG tests: tags nest and close, attribute
// values are quoted, entities are the five predefined ones or numeric, one root element.
#include <string>
#include <vector>

namespace posenc::test {

/// "" when `xml` is well-formed, else what is wrong and where.
inline std::string xml_problem(const std::string& xml) {
  std::vector<std::string> open;
  bool had_root = false;
  auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == ':' || c == '-' || c == '_' || c == '.'; };
  auto check_entities = [](const std::string& s) -> bool {
    for (std::size_t i = s.find('&'); i != std::string::npos; i = s.find('&', i + 1)) {
      const auto end = s.find(';', i);
      if (end == std::string::npos) return false;
      const std::string e = s.substr(i + 1, end - i - 1);
      if (e != "amp" && e != "lt" && e != "gt" && e != "quot" && e != "apos" && (e.empty() || e[0] != '#')) return false;
    }
    return s.find('<') == std::string::npos;
  };
  std::size_t i = 0;
  while (i < xml.size()) {
    if (xml[i] != '<') {
      const auto next = xml.find('<', i);
      const std::string text = xml.substr(i, next - i);
      if (!check_entities(text)) return "bad character data at " + std::to_string(i);
      if (open.empty() && text.find_first_not_of(" \n\r\t") != std::string::npos) return "text outside the root";
      i = next == std::string::npos ? xml.size() : next;
      continue;
    }
    if (xml.compare(i, 5, "<?xml") == 0) {
      if (i != 0) return "declaration not at the start";
      i = xml.find("?>", i);
      if (i == std::string::npos) return "unclosed declaration";
      i += 2;
      continue;
    }
    if (xml.compare(i, 4, "<!--") == 0) {
      i = xml.find("-->", i);
      if (i == std::string::npos) return "unclosed comment";
      i += 3;
      continue;
    }
    const bool closing = i + 1 < xml.size() && xml[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    const std::size_t name_start = j;
    while (j < xml.size() && is_name(xml[j])) ++j;
    const std::string name = xml.substr(name_start, j - name_start);
    if (name.empty()) return "empty tag name at " + std::to_string(i);
    // Attributes: name="value" pairs.
    while (j < xml.size() && xml[j] != '>' && xml[j] != '/') {
      if (std::isspace(static_cast<unsigned char>(xml[j]))) {
        ++j;
        continue;
      }
      const std::size_t a = j;
      while (j < xml.size() && is_name(xml[j])) ++j;
      if (j == a || j >= xml.size() || xml[j] != '=') return "bad attribute in <" + name + ">";
      const char q = xml[j + 1];
      if (q != '"' && q != '\'') return "unquoted attribute in <" + name + ">";
      const auto end = xml.find(q, j + 2);
      if (end == std::string::npos) return "unclosed attribute in <" + name + ">";
      if (!check_entities(xml.substr(j + 2, end - j - 2))) return "bad attribute value in <" + name + ">";
      j = end + 1;
    }
    if (j >= xml.size()) return "unclosed tag <" + name + ">";
    const bool self_closing = xml[j] == '/';
    if (self_closing && (j + 1 >= xml.size() || xml[j + 1] != '>')) return "bad end of <" + name + ">";
    i = j + (self_closing ? 2 : 1);
    if (closing) {
      if (open.empty() || open.back() != name) return "</" + name + "> closes nothing open";
      open.pop_back();
    } else {
      if (open.empty() && had_root) return "second root element <" + name + ">";
      had_root = true;
      if (!self_closing) open.push_back(name);
    }
  }
  if (!open.empty()) return "<" + open.back() + "> is not closed";
  return had_root ? "" : "no root element";
}

}  // namespace posenc::test
