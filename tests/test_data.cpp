#include "test_data.hpp"

namespace posenc::test {
std::string data_path(const std::string& relative) { return std::string(POSENC_TEST_DATA) + "/" + relative; }
}  // namespace posenc::test
