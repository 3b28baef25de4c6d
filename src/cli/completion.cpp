// Completion scripts for bash, zsh and fish, written from the command-line model (cli_model.hpp).
// Each script holds three tables (the subcommands of a command path, its options, and what
// an option's value is: fixed choices, a file, or free text) and one small function that finds
// the command path of the words typed so far and completes the current word from them.
#include <fmt/format.h>

#include <map>

#include "cli_model.hpp"
#include "posenc/error.hpp"
#include "posenc/text.hpp"

namespace posenc::cli {
namespace {

struct Tables {
  std::map<std::string, std::vector<std::string>> subcommands, options;
  // "choices a b", "list a b" (a comma list of them), "file", "value"; the option "" of a command
  // path is its positional argument ("file": posenc model PATH).
  std::map<std::pair<std::string, std::string>, std::string> values;
};

/// `inherited`: options of the parents that this command accepts too (global ones, and the
/// parent's own when the command falls through to it, as the schemes under generate do).
void collect(const CommandModel& c, const std::vector<OptionModel>& inherited, Tables& t) {
  auto& subs = t.subcommands[c.path];
  for (const auto& s : c.subcommands) subs.push_back(s.name);
  auto& opts = t.options[c.path];
  if (c.positional_file) t.values[{c.path, ""}] = "file";
  auto add = [&](const OptionModel& o) {
    for (const auto& n : o.names) {
      if (std::find(opts.begin(), opts.end(), n) != opts.end()) continue;
      opts.push_back(n);
      if (!o.takes_value) continue;
      std::string kind = o.file ? "file" : "value";
      if (!o.choices.empty()) {
        kind = o.list ? "list" : "choices";
        for (const auto& ch : o.choices) kind += " " + ch;
      }
      t.values[{c.path, n}] = kind;
    }
  };
  for (const auto& o : c.options) add(o);
  for (const auto& o : inherited) add(o);
  for (const auto& s : c.subcommands) {
    std::vector<OptionModel> down = inherited;
    if (s.fallthrough) down.insert(down.end(), c.options.begin(), c.options.end());
    collect(s, down, t);
  }
}

Tables tables(const CommandModel& root) {
  // Options of the top level that may stand anywhere (--max-memory, --quiet) are offered everywhere.
  std::vector<OptionModel> global;
  for (const auto& o : root.options)
    if (std::find(o.names.begin(), o.names.end(), "--max-memory") != o.names.end() ||
        std::find(o.names.begin(), o.names.end(), "--quiet") != o.names.end())
      global.push_back(o);
  Tables t;
  collect(root, global, t);
  return t;
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

/// The three table functions in POSIX-shell `case` syntax (bash and zsh read them alike).
std::string sh_tables(const Tables& t) {
  std::string s = "_posenc_subcommands() {\n  case \"$1\" in\n";
  for (const auto& [path, subs] : t.subcommands)
    if (!subs.empty()) s += fmt::format("    \"{}\") echo \"{}\" ;;\n", path, join(subs));
  s += "  esac\n}\n_posenc_options() {\n  case \"$1\" in\n";
  for (const auto& [path, opts] : t.options) s += fmt::format("    \"{}\") echo \"{}\" ;;\n", path, join(opts));
  s += "  esac\n}\n_posenc_values() {\n  case \"$1|$2\" in\n";
  for (const auto& [key, kind] : t.values) s += fmt::format("    \"{}|{}\") echo \"{}\" ;;\n", key.first, key.second, kind);
  s += "  esac\n}\n";
  return s;
}

std::string bash(const Tables& t) {
  return "# bash completion for posenc (written by `posenc completion bash`)\n" + sh_tables(t) + R"SH(_posenc() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmdpath="" w kind i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if [[ $w == -* ]]; then
      kind=$(_posenc_values "$cmdpath" "$w")
      if [[ -n $kind && ${COMP_WORDS[i+1]} != "=" ]]; then ((i++)); fi
      continue
    fi
    [[ $w == "=" ]] && { ((i++)); continue; }
    if [[ " $(_posenc_subcommands "$cmdpath") " == *" $w "* ]]; then cmdpath=${cmdpath:+$cmdpath }$w; fi
  done
  ((COMP_CWORD > 1)) && prev=${COMP_WORDS[COMP_CWORD-1]}
  [[ $cur == "=" ]] && { prev=${COMP_WORDS[COMP_CWORD-1]}; cur=""; }
  [[ $prev == "=" ]] && prev=${COMP_WORDS[COMP_CWORD-2]}
  if [[ $prev == -* ]]; then
    kind=$(_posenc_values "$cmdpath" "$prev")
    case $kind in
      choices*) COMPREPLY=($(compgen -W "${kind#choices }" -- "$cur")); return ;;
      list*)
        local done="" part=$cur
        [[ $cur == *,* ]] && { done=${cur%,*},; part=${cur##*,}; }
        compopt -o nospace 2>/dev/null
        COMPREPLY=($(compgen -P "$done" -W "${kind#list }" -- "$part")); return ;;
      file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
      value) COMPREPLY=(); return ;;
    esac
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_posenc_options "$cmdpath")" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$(_posenc_subcommands "$cmdpath")" -- "$cur"))
    if [[ $(_posenc_values "$cmdpath" "") == file ]]; then
      compopt -o filenames 2>/dev/null; COMPREPLY+=($(compgen -f -- "$cur"))
    fi
  fi
}
complete -F _posenc posenc
)SH";
}

std::string zsh(const Tables& t) {
  return "#compdef posenc\n# zsh completion for posenc (written by `posenc completion zsh`)\n" + sh_tables(t) + R"SH(_posenc() {
  local cur=${words[CURRENT]} prev="" cmdpath="" w kind i
  for ((i = 2; i < CURRENT; i++)); do
    w=${words[i]}
    if [[ $w == -* ]]; then
      kind=$(_posenc_values "$cmdpath" "${w%%=*}")
      [[ -n $kind && $w != *=* ]] && ((i++))
      continue
    fi
    if [[ " $(_posenc_subcommands "$cmdpath") " == *" $w "* ]]; then cmdpath=${cmdpath:+$cmdpath }$w; fi
  done
  ((CURRENT > 2)) && prev=${words[CURRENT-1]}
  if [[ $prev == -* ]]; then
    kind=$(_posenc_values "$cmdpath" "$prev")
    case $kind in
      choices*) compadd -- ${=kind#choices }; return ;;
      list*) compset -P '*,'; compadd -S '' -- ${=kind#list }; return ;;
      file) _files; return ;;
      value) return ;;
    esac
  fi
  if [[ $cur == -* ]]; then
    compadd -- ${=$(_posenc_options "$cmdpath")}
  else
    compadd -- ${=$(_posenc_subcommands "$cmdpath")}
    [[ $(_posenc_values "$cmdpath" "") == file ]] && _files
  fi
}
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then _posenc "$@"; else compdef _posenc posenc; fi
)SH";
}

std::string fish(const Tables& t) {
  std::string s = "# fish completion for posenc (written by `posenc completion fish`)\n";
  s += "function __posenc_subcommands\n  switch \"$argv[1]\"\n";
  for (const auto& [path, subs] : t.subcommands)
    if (!subs.empty()) s += fmt::format("    case '{}'\n      printf '%s\\n' {}\n", path, join(subs));
  s += "  end\nend\nfunction __posenc_options\n  switch \"$argv[1]\"\n";
  for (const auto& [path, opts] : t.options) s += fmt::format("    case '{}'\n      printf '%s\\n' {}\n", path, join(opts));
  s += "  end\nend\nfunction __posenc_values\n  switch \"$argv[1]|$argv[2]\"\n";
  for (const auto& [key, kind] : t.values) s += fmt::format("    case '{}|{}'\n      echo '{}'\n", key.first, key.second, kind);
  s += R"SH(  end
end
function __posenc_complete
  set -l words (commandline -opc)
  set -l cur (commandline -ct)
  set -l cmdpath ''
  set -l skip 0
  for w in $words[2..-1]
    if test $skip -eq 1
      set skip 0
      continue
    end
    if string match -q -- '-*' $w
      set -l kind (__posenc_values "$cmdpath" (string split -m1 = -- $w)[1])
      if test -n "$kind"; and not string match -q -- '*=*' $w
        set skip 1
      end
      continue
    end
    if contains -- $w (__posenc_subcommands "$cmdpath")
      if test -z "$cmdpath"
        set cmdpath $w
      else
        set cmdpath "$cmdpath $w"
      end
    end
  end
  set -l prev ''
  if test (count $words) -gt 1
    set prev $words[-1]
  end
  if string match -q -- '-*' $prev
    set -l kind (__posenc_values "$cmdpath" $prev)
    switch "$kind"
      case 'choices*'
        string split ' ' -- (string replace 'choices ' '' -- $kind)
        return
      case 'list*'
        set -l done (string match -r -- '^.*,' $cur)
        for item in (string split ' ' -- (string replace 'list ' '' -- $kind))
          echo "$done$item"
        end
        return
      case file
        __fish_complete_path $cur
        return
      case value
        return
    end
  end
  if string match -q -- '-*' $cur
    __posenc_options "$cmdpath"
  else
    __posenc_subcommands "$cmdpath"
    if test "$(__posenc_values "$cmdpath" '')" = file
      __fish_complete_path $cur
    end
  end
end
complete -c posenc -f -a '(__posenc_complete)'
)SH";
  return s;
}

}  // namespace

const std::vector<std::string>& completion_shells() {
  static const std::vector<std::string> shells = {"bash", "zsh", "fish"};
  return shells;
}

std::string completion_script(const CommandModel& root, const std::string& shell) {
  const Tables t = tables(root);
  if (shell == "bash") return bash(t);
  if (shell == "zsh") return zsh(t);
  if (shell == "fish") return fish(t);
  throw Error(fmt::format("unknown shell '{}'{}; posenc completion writes scripts for {}", shell,
                          did_you_mean(shell, completion_shells()), join_choices(completion_shells())));
}

}  // namespace posenc::cli
