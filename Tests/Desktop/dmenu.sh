#!/bin/sh
# dunst's context menu ("dmenu" in dunstrc) for the dunst test.  The file named by
# $UNCENTER_DMENU_CONTROL says what to do:
#   show        the real dmenu, so the screenshot shows the actions as dunst offers them
#               (dunst draws no buttons); its pid goes to $UNCENTER_DMENU_CONTROL.pid
#   pick WORD   answer with the first menu line containing WORD, as a person choosing it
set -eu
read -r mode word <"$UNCENTER_DMENU_CONTROL"
case "$mode" in
  show)
    echo $$ >"$UNCENTER_DMENU_CONTROL.pid"
    exec dmenu -b -l 4 -fn "DejaVu Sans-13" -nb "#1f2329" -nf "#ffffff" -sb "#3b6ea5" -sf "#ffffff" -p "Akcje:"
    ;;
  pick)
    grep -F -m 1 -- "$word"
    ;;
esac
