#!/usr/bin/env bash
# A match at a time control with fastchess (../shared/tools/fastchess/build.sh installs it),
# openings from ../shared/epd/openings.epd in an order drawn from SRAND, each played with
# both colours, one thread and 16 MiB each, two games at a time (CONC=1 for one):
#
#   scripts/match.sh NAME_A EXE_A "OPTS_A" NAME_B EXE_B "OPTS_B" TC GAMES OUT [SRAND] [ELO0 ELO1]
#
# OPTS are UCI options as Name=Value, space-separated ("EvalFile=/x/net.nnue UseNNUE=false").
# With ELO0 and ELO1 the match is a pentanomial SPRT (alpha = beta = 0.05) that stops when
# it decides. Writes OUT.pgn and OUT.log; the log ends with fastchess's summary.
# OPENINGS=FILE.epd plays other openings; VARIANT=fischerandom plays them as Chess960
# (scripts/chess960-openings.py writes the 960 start positions).
set -euo pipefail
if [ $# -lt 9 ]; then sed -n '2,10p' "$0"; exit 2; fi
a_name=$1 a_exe=$2 a_opts=$3 b_name=$4 b_exe=$5 b_opts=$6 tc=$7 games=$8 out=$9
srand=${10:-1}
openings=${OPENINGS:-$(dirname "$0")/../../shared/epd/openings.epd}
options() { for o in $1; do printf 'option.%s ' "$o"; done; }
sprt=()
if [ $# -ge 12 ]; then sprt=(-sprt elo0="${11}" elo1="${12}" alpha=0.05 beta=0.05 model=normalized); fi
# shellcheck disable=SC2046 # the options are words on purpose
fastchess \
    -engine cmd="$a_exe" name="$a_name" $(options "$a_opts") \
    -engine cmd="$b_exe" name="$b_name" $(options "$b_opts") \
    -each proto=uci tc="$tc" option.Hash=16 option.Threads=1 ${VARIANT:+-variant "$VARIANT"} \
    -openings file="$openings" format=epd order=random -srand "$srand" \
    -games 2 -rounds $((games / 2)) -repeat -concurrency "${CONC:-2}" -recover \
    -ratinginterval 20 -pgnout file="$out.pgn" "${sprt[@]}" 2>&1 | tee "$out.log"
