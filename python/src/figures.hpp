#pragma once
// posenc.figure: what `posenc COMMAND … -o x.png` draws (figures.cpp), and the keyword readers
// of module.cpp it shares with the functions of the same commands.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "commands.hpp"
#include "kwargs.hpp"

namespace posenc::python {

/// hf_config= or gguf= (not both): the model's path, "" when neither.
std::string take_model_path(Keywords& kw);
/// generate's table: SCHEME (or the model's) with the scheme's keywords.
std::unique_ptr<Table> make_table(const std::string& scheme_arg, Keywords& kw);
/// extrapolate's keywords (train_len= and target_len= required).
ExtrapolateArgs extrapolate_args(Keywords& kw);

/// figure(COMMAND, *args, **kwargs) for generate, rope, rope_diff, rope_engines, decay, project,
/// similarity, extrapolate, model and usage, with the figure options width=, height=, scale=,
/// title=, cmap=.
FigureData figure(const std::string& command, pybind11::tuple args, pybind11::dict kwargs);

}  // namespace posenc::python
