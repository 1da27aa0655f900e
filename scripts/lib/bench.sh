# What the benchmark scripts share; sourced by scripts/bench, bench-ab, bench-live, bench-postgres and profile.

# Installs the Debian packages whose commands are missing.
need_commands() {  # command:package...
    local pair missing=()
    for pair in "$@"; do command -v "${pair%%:*}" >/dev/null || missing+=("${pair#*:}"); done
    [ ${#missing[@]} -eq 0 ] || { apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null; }
}

# The binary to measure: JUICEMAKER_BIN, or a release build made now.
bench_binary() {
    if [ -n "${JUICEMAKER_BIN:-}" ]; then
        echo "$JUICEMAKER_BIN"
    else
        swift build -c release --product juicemaker >/dev/null
        echo "$(swift build -c release --show-bin-path)/juicemaker"
    fi
}

# Waits for a server's --port-file and prints the port; fails when none came within 20 s.
port_from() {  # port-file
    local _
    for _ in $(seq 200); do [ -s "$1" ] && { cat "$1"; return; }; sleep 0.1; done
    echo "no port in $1: the server did not start" >&2
    return 1
}

# Every fruit of the default menu at its most (1,000,000), by the CLI: no measured order is refused
# for stock.
fill_fruit() {  # binary database
    local fruit
    for fruit in strawberry banana pineapple kiwi mango; do "$1" stock set "$fruit" 1000000 --database "$2" >/dev/null; done
}

# Processes' CPU time so far (user and system, /proc/<pid>/stat), summed, in clock ticks.
cpu_ticks() {  # pid...
    local pid
    for pid in "$@"; do awk '{print $14 + $15}' "/proc/$pid/stat"; done | awk '{s += $1} END {print s}'
}

# The whole machine's clock ticks so far (/proc/stat): idle (with waiting for the disk) and in all,
# user to steal (the guest columns after them are counted in user and nice already).
machine_ticks() {
    awk '$1 == "cpu" {total = 0; for (i = 2; i <= 9; i++) total += $i; print $5 + $6, total}' /proc/stat
}

# A column of wrk latencies ("812.00us", "1.26ms", "1.02s") in milliseconds, one a line.
latencies_ms() {  # column [file]
    awk -v c="$1" '{ t = $c; v = t + 0; if (t ~ /us$/) v /= 1000; else if (t !~ /ms$/) v *= 1000; print v }' "${2:--}"
}

# The median of the numbers on standard input, one a line.
median() {
    sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
