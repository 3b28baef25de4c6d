#pragma once
/// One entry per scheme, defined next to its formulas; posenc/schemes/registry.hpp lists them.
#include "posenc/encodings/scheme.hpp"

namespace posenc::encodings {

SchemeInfo integer_scheme();     // simple.cpp
SchemeInfo normalized_scheme();  // simple.cpp
SchemeInfo binary_scheme();      // binary.cpp
SchemeInfo sine_scheme();        // sine.cpp
SchemeInfo sinusoidal_scheme();  // sinusoidal.cpp
SchemeInfo learned_scheme();     // learned.cpp
SchemeInfo recurrent_scheme();   // recurrent.cpp
SchemeInfo alibi_scheme();       // alibi.cpp
SchemeInfo t5_scheme();          // t5.cpp
SchemeInfo nope_scheme();        // nope.cpp
SchemeInfo deberta_scheme();     // deberta.cpp
SchemeInfo transformer_xl_scheme();  // transformer_xl.cpp
SchemeInfo shaw_scheme();        // shaw.cpp
SchemeInfo kerple_scheme();      // kerple_scheme.cpp
SchemeInfo sandwich_scheme();    // kerple_scheme.cpp
SchemeInfo fire_scheme();        // fire_scheme.cpp

}  // namespace posenc::encodings
