# bash completion for iobench: commands, each command's flags and
# subcommands, run's job options (--rw=, --bs=, ... and each engine's own)
# and, after --OPTION= or OPTION=, the words that option takes (the
# engines after --ioengine=, rw's modes after --rw=). Every word comes from
# `iobench help words`, which reads the binary's own tables, so this file
# never lists an option itself. Installed by `meson install` into
# share/bash-completion/completions/iobench.

_iobench_words() { # topic [cmd]
  "${_iobench_bin:-iobench}" help words "$@" 2>/dev/null
}

_iobench() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd="" i w
  _iobench_bin=${COMP_WORDS[0]}
  COMPREPLY=()
  # the command: the first word after the program that is not a flag
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    [[ $w == -* ]] && continue
    cmd=$w
    break
  done
  # invoked as fio (a symlink): iobench run
  [[ ${_iobench_bin##*/} == fio ]] && cmd=run
  if [[ -z $cmd ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_iobench_words commands)" -- "$cur")
    return
  fi
  case $cur in
    *=*)
      # an option's value: the words it takes, if it takes words
      local key=${cur%%=*} vals
      vals=$(_iobench_words values "${key#--}")
      if [[ -n $vals ]]; then
        mapfile -t COMPREPLY < <(compgen -P "$key=" -W "$vals" -- "${cur#*=}")
        return
      fi
      [[ $cur == -* ]] && return ;;
    -*)
      local words
      words=$(_iobench_words flags "$cmd")
      [[ $cmd == run ]] && words+=$'\n'$(_iobench_words options)
      mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
      # a word ending in '=' takes its value right after it
      [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
      return ;;
  esac
  # the word right after the command: its subcommand, when it has them
  if [[ $COMP_CWORD -eq $((i + 1)) ]]; then
    local subs
    subs=$(_iobench_words subcommands "$cmd")
    if [[ -n $subs ]]; then
      mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
      return
    fi
  fi
  mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  compopt -o filenames 2>/dev/null
}

complete -F _iobench iobench
