#!/usr/bin/env bash
# The CLI as a user runs it: exit statuses, messages, outputs, and the core properties checked
# again independently of the C++ tests. Usage: test_cli.sh path/to/ascend-sim
set -u
sim=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
py=/usr/bin/python3  # Debian's, which has python3-numpy
[ -x "$py" ] || py=python3

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect STATUS PATTERN -- args...: runs the CLI, checks its exit status and that stdout+stderr
# contain PATTERN (an extended regex).
expect() {
  local want=$1 pattern=$2
  shift 3
  local out status
  out=$("$sim" "$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ]; then
    bad "ascend-sim $*: exit $status, wanted $want"$'\n'"$out"
  elif ! grep -Eq -- "$pattern" <<<"$out"; then
    bad "ascend-sim $*: output lacks /$pattern/"$'\n'"$out"
  else
    ok
  fi
}

# expect_not PATTERN -- args...: like expect with status 0 given by the caller's STATUS, but the
# output must NOT contain PATTERN.
expect_not() {
  local want=$1 pattern=$2
  shift 3
  local out status
  out=$("$sim" "$@" 2>&1)
  status=$?
  if [ "$status" != "$want" ]; then
    bad "ascend-sim $*: exit $status, wanted $want"$'\n'"$out"
  elif grep -Eq -- "$pattern" <<<"$out"; then
    bad "ascend-sim $*: output has /$pattern/"$'\n'"$out"
  else
    ok
  fi
}

within() { "$py" -c "import sys; v=float(sys.argv[1]); sys.exit(0 if float(sys.argv[2]) <= v <= float(sys.argv[3]) else 1)" "$@"; }
json() {  # json FILE EXPR: evaluates a Python expression over the parsed file as `j`
  "$py" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"
}

# --- the default scenario and the informational flags
expect 0 "kernel dispatch on preset a3, 16 rank\(s\) x 48 of 48 AIV cores" --
expect 0 "--list-params" -- --help
expect 0 "hbm.bandwidth_GBps = 1600 GB/s" -- --list-params
expect 0 "source: \[INI-C\]" -- --list-params
expect 0 "die.aiv_count = 40" -- --preset 910b4 --list-params
expect 0 "stream" -- --list-kernels
expect 0 "simulator.wall_s" -- --list-stats
expect 0 "\"path\": \"kernels\[\].latency_ns\"" -- --list-stats --json

# --- bad input: status 2, naming the key, the value and what is allowed
expect 2 "unknown parameter 'hbm.bandwith_GBps'" -- --set hbm.bandwith_GBps=1
expect 2 "die.aiv_count = '0'.*an integer in \[1, 96\]" -- --set die.aiv_count=0
expect 2 "core.clock_GHz = 'fast'.*not a number" -- --set core.clock_GHz=fast
expect 2 "unrecognised option '--bogus'" -- --bogus
expect 2 "unknown preset 'a9'" -- --preset a9
expect 2 "unknown kernel|run.kernel = 'nope'" -- --kernel nope
expect 2 "cannot read config file" -- --config "$tmp/missing.ini"
printf '[hbm]\nbandwidth = 1\n' >"$tmp/bad.ini"
expect 2 "unknown parameter 'hbm.bandwidth'" -- --config "$tmp/bad.ini"
expect 2 "stream wants 49 cores; die.aiv_count is 48" -- --kernel stream --set stream.cores=49
expect 2 "trace.cores = '3-1'" -- --set trace.cores=3-1

# --- kernel faults (5), check failures (4), deadlocks (3)
expect 5 "UB overflow: InitBuffer\(queue, 2 x 131072 B\) at .*stream_kernel.h:[0-9]+ needs 262144 B" -- --kernel stream --set stream.tile_bytes=131072
expect 4 "check failed: syncbug: tensor y" -- --kernel syncbug --set syncbug.bug=missing_flag
expect 3 "head WaitFlag<MTE2_V>\(0\) unset since" -- --kernel syncbug --set syncbug.bug=unset_flag
expect 3 "SyncAll \(3 of 4 cores arrived\)" -- --kernel syncbug --set syncbug.bug=skip_syncall
expect 0 "outputs match" -- --kernel syncbug

# --- outputs: stats.json, config.ini (which reruns the same run), trace.json, waves.vcd
expect 0 "outputs +$tmp/a/stats.json" -- --kernel stream --set stream.cores=4 --out "$tmp/a" --trace --vcd
if [ -f "$tmp/a/stats.json" ]; then
  [ "$(json "$tmp/a/stats.json" "j['kernels'][0]['name']")" = stream ] && ok || bad "stats.json kernel name"
  json "$tmp/a/stats.json" "j['kernels'][0]['latency_ns'] > 0 and len(j['kernels'][0]['rank_latency_ns']) == 1 and j['simulator']['wall_s'] >= 0 and j['simulator']['peak_rss_MiB'] > 0 and j['kernels'][0]['bandwidth_GBps'] > 0" | grep -q True && ok || bad "stats.json figures"
  # The wall time's split: the models' events and the kernels' threads, each a part of the whole.
  json "$tmp/a/stats.json" "(lambda m: 0 < m['event_wall_s'] and 0 < m['kernel_wall_s'] and m['event_wall_s'] + m['kernel_wall_s'] < m['wall_s'])(j['simulator'])" | grep -q True && ok || bad "stats.json wall split: $(json "$tmp/a/stats.json" "j['simulator']")"
  lanes=$(json "$tmp/a/trace.json" "sorted({e['args']['name'].split()[-1] for e in j['traceEvents'] if e.get('name') == 'thread_name'})")
  [ "$lanes" = "['FLOWCTRL', 'MTE2', 'MTE3', 'SCALAR', 'VECTOR', 'cluster.die0.hbm']" ] && ok || bad "trace lanes: $lanes"
  grep -q 'MTE2_busy' "$tmp/a/waves.vcd" && grep -q 'flag_MTE2_V' "$tmp/a/waves.vcd" && ok || bad "waves.vcd signals"
  grep -q 'scope module aiv3 ' "$tmp/a/waves.vcd" && grep -q 'transfers' "$tmp/a/waves.vcd" && ok || bad "waves.vcd scopes follow the module tree"
  expect 0 "outputs" -- --config "$tmp/a/config.ini" --out "$tmp/b"
  a=$(json "$tmp/a/stats.json" "j['kernels'][0]['latency_ns']")
  b=$(json "$tmp/b/stats.json" "j['kernels'][0]['latency_ns']")
  [ "$a" = "$b" ] && ok || bad "config.ini rerun: latency $a vs $b"
  # malloc's huge pages (apps/ascend-sim/main.cpp): asked for unless opted out, and simulated time the same
  if [[ "${GLIBC_TUNABLES:-}" != *glibc.malloc.hugetlb* ]]; then
    [ "$(json "$tmp/a/stats.json" "j['simulator']['malloc_huge_pages']")" = True ] && ok ||
      bad "malloc's huge pages not asked for"
  fi
  ASCEND_SIM_NO_HUGE_PAGES=1 "$sim" --config "$tmp/a/config.ini" --out "$tmp/c" >/dev/null 2>&1
  c=$(json "$tmp/c/stats.json" "(j['simulator']['malloc_huge_pages'], j['kernels'][0]['latency_ns'])")
  [ "$c" = "(False, $a)" ] && ok || bad "ASCEND_SIM_NO_HUGE_PAGES=1: $c, latency $a"
else
  bad "no stats.json"
fi

# --- input that does nothing is refused (exit 2) or, for keys of another kernel, warned about
small=(--ep 4 --experts 16 --bs 8 --hidden 1024)
expect 2 "--bs does not apply to kernel stream: it is a flag of dispatch" -- --kernel stream --bs 64 --routing zipf:1.2
expect 2 "--routing does not apply to kernel pipeline" -- --kernel pipeline --routing zipf:1.2
expect 2 "--quant does not apply to kernel ffn_worker_batching" -- --kernel ffn_worker_batching --quant int8
# Regression: the first flag the kernel does not read is refused, whichever it is.
expect 2 "--bs does not apply to kernel stream" -- --kernel stream --bs 4 --routing zipf:1
expect 2 "--seed does not apply to kernel flag_ring" -- --kernel flag_ring --seed 3
# Every kernel: every other kernel's flag it does not declare (--list-kernels --json "flags") is
# exit 2, and each flag it declares passes the CLI (a dry run with the flag's default value).
flagcheck=$("$sim" --list-kernels --json | "$py" -c '
import json, sys
ks = json.load(sys.stdin)
every = sorted({f for k in ks for f in k["flags"]})
for k in ks:
    for f in every:
        print(k["name"], f, "own" if f in k["flags"] else "other")')
while read -r kname flag whose; do
  [ "$whose" = other ] || continue
  out=$("$sim" --kernel "$kname" "$flag" 1 --dry-run 2>&1)
  status=$?
  if [ "$status" = 2 ] && grep -q -- "$flag does not apply to kernel $kname" <<<"$out"; then ok
  else bad "--kernel $kname $flag 1: exit $status, wanted 2 naming the flag"$'\n'"$out"; fi
done <<<"$flagcheck"
[ "$(grep -c other <<<"$flagcheck")" -gt 100 ] && ok || bad "the flag matrix is too small: $flagcheck"
# A kernel's own flags: its default values pass (the parameter's value is read back from --list-params).
expect 0 "dry run: kernel dispatch" -- --kernel dispatch --bs 128 --routing uniform --seed 1 --dry-run
expect 0 "dry run: kernel ffn_worker_batching" -- --kernel ffn_worker_batching --bs 64 --routing uniform --dry-run
# The plan stage: a bad attribute at EP 768 is refused in about a second, before the cluster.
start=$(date +%s%N)
expect 2 "dispatch: MoE experts \(--experts\) = 7 is outside the A3 limit" -- --kernel dispatch --ep 768 --experts 7
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 2000 ] && ok || bad "--ep 768 --experts 7 took $ms ms to be refused"
expect 2 "outside the A3 limit" -- --kernel dispatch --ep 768 --experts 7 --dry-run
# Fuzz finding (fuzz_cli): an argument holding a placeholder of Boost's error messages made the
# message loop forever (a hang); it is refused.
expect 2 "holds '%original_token%', which the option parser cannot report on" -- "--$(printf '\001')%original_token%"
# Resource limits, up front and in a dry run too: memory (what it needs, the timing-only way out).
expect 2 "needs about 4016 MiB of memory .* run it timing-only" -- --ep 64 --set run.memory_MiB=1000 --dry-run
expect 0 "dry run" -- --ep 64 --set run.memory_MiB=1300 --no-check --set sim.payload=0 --dry-run
# moe with FFN experts counts their weights (host and GM copies): 29,022 MiB of payload at EP 4
# with the default 256 experts, where the stand-in fits in 8000 MiB; timing-only holds none.
expect 2 "144 MiB for the cores' stacks and local memories, 29022 MiB for the payload" -- --kernel moe --ep 4 --quant none --set moe.experts=ffn --set run.memory_MiB=8000 --dry-run
expect 0 "dry run" -- --kernel moe --ep 4 --quant none --set run.memory_MiB=8000 --dry-run
expect 0 "dry run" -- --kernel moe --ep 4 --quant none --set moe.experts=ffn --set run.memory_MiB=8000 --no-check --set sim.payload=0 --dry-run
# flag_ring: ep.world_size = 0 is the kernel's default (2 ranks), as the parameter says.
expect 0 "kernel flag_ring on preset a3, 2 rank\(s\)" -- --kernel flag_ring --set ep.world_size=0
expect 2 "flag_ring needs ep.world_size >= 2 \(got 1\)" -- --kernel flag_ring --set ep.world_size=1
expect 2 "kernel pipeline writes no tensors: --dump \(run.dump_dir\) applies to dispatch" -- --kernel pipeline --dump "$tmp/pd"
[ ! -e "$tmp/pd" ] && ok || bad "a refused --dump created its directory"
expect 2 "kernel pipeline reads no input tensors: --input" -- --kernel pipeline --input /missing
expect 2 "kernel ffn_worker_batching reads no input tensors" -- --kernel ffn_worker_batching --input "$tmp"
expect 2 "--input \(run.input_dir\): directory '/missing' cannot be read: it does not exist" -- "${small[@]}" --input /missing
expect 2 "unexpected argument 'pipeline': did you mean --kernel pipeline\?" -- pipeline
expect 2 "unexpected argument 'out': options start with --" -- --kernel pipeline out
expect 2 "did you mean --set trace.ranks=all\?" -- trace.ranks=all
expect 2 "--ep 0: the EP group has 1 to 768 ranks; leave --ep out" -- --kernel ub_write --ep 0
expect 2 "--json applies only to --list-params, --list-kernels, --list-stats and --list-counters" -- --kernel pipeline --json
expect 0 "warning: pipeline.buffer_num = 1 \(from --set\) is not read by kernel dispatch" -- "${small[@]}" --set pipeline.buffer_num=1
expect_not 0 "warning" -- --kernel pipeline --set hbm.bandwidth_GBps=800 --set pipeline.buffer_num=1
printf '[pipeline]\nbuffer_num = 1\n[stream]\ncores = 2\n[combine]\nreceiver = in_order\n' >"$tmp/multi.ini"
expect 0 "warning: pipeline.buffer_num = 1 \(from $tmp/multi.ini\) is not read by kernel stream" -- --kernel stream --config "$tmp/multi.ini"
expect_not 0 "warning: (stream|combine)" -- --kernel stream --config "$tmp/multi.ini"
# ep.world_size = 0 (the kernel's default) is recorded resolved: config.ini reruns the same run
expect 0 "outputs" -- --kernel ub_write --set ub_write.bytes=4096 --out "$tmp/e1"
grep -qx "world_size = 2  # ranks" "$tmp/e1/config.ini" && ok || bad "config.ini ep.world_size: $(grep world_size "$tmp/e1/config.ini")"
expect_not 0 "warning" -- --config "$tmp/e1/config.ini" --out "$tmp/e2"
[ "$(json "$tmp/e1/stats.json" "j['kernels']")" = "$(json "$tmp/e2/stats.json" "j['kernels']")" ] && ok || bad "config.ini rerun of ub_write differs"
# a trace scope that selects nothing of the run
expect 2 "trace.ranks = '5' selects no rank of this run: ranks are 0-0 \(ep.world_size = 1\)" -- --kernel pipeline --set trace.ranks=5 --trace --out "$tmp/t5"
expect 2 "trace.ranks = '4-7' selects no rank of this run: ranks are 0-3" -- --kernel ub_write --ep 4 --set trace.ranks=4-7 --vcd --out "$tmp/t5"
expect 2 "trace.cores = '48-50' selects no core of a die: cores are 0-47" -- --kernel pipeline --set trace.cores=48-50 --trace --out "$tmp/t5"
expect 0 "warning: trace.cores = 4 selects none of the 1 core\(s\) the kernel ran on" -- --kernel pipeline --set trace.cores=4 --trace --out "$tmp/t5"
expect 0 "outputs" -- --kernel pipeline --set trace.ranks=5 --out "$tmp/t5"  # no trace: no scope
# output directories that cannot be written are bad input, found before the run
expect 2 "--out: cannot create directory '/proc/x'" -- --kernel pipeline --out /proc/x
touch "$tmp/file"
expect 2 "--out: cannot create directory '$tmp/file': Not a directory" -- --kernel pipeline --out "$tmp/file"
expect 2 "--dump: cannot create directory '/proc/x'" -- "${small[@]}" --dump /proc/x
# did you mean: --set and --config keys, choices, kernels, options
expect 2 "unknown parameter 'hbm.bandwith_GBps' \(did you mean hbm.bandwidth_GBps\?\)" -- --set hbm.bandwith_GBps=1
printf '[pipeline]\nbufer_num = 1\n' >"$tmp/typo.ini"
expect 2 "unknown parameter 'pipeline.bufer_num' \(did you mean pipeline.buffer_num\?\)" -- --config "$tmp/typo.ini"
expect 2 "'missing_flg' .*is not a known choice \(did you mean missing_flag\?\)" -- --kernel syncbug --set syncbug.bug=missing_flg
expect 2 "unknown kernel 'pipelin' \(did you mean pipeline\?\)" -- --kernel pipelin
expect 2 "run.kernel = 'pipelin' .*\(did you mean pipeline\?\)" -- --set run.kernel=pipelin
expect 2 "unrecognised option '--kernal' \(did you mean --kernel\?\)" -- --kernal pipeline
# a fault on several cores at once reports the first, without SystemC's W545 (repeated sc_stop)
expect_not 5 "W545|sc_stop" -- --kernel stream --set stream.tile_bytes=131072 --set stream.cores=4
expect 5 "UB overflow" -- --kernel stream --set stream.tile_bytes=131072 --set stream.cores=4

# --- --version, the summary, stats.json's run, --list-kernels, --list-params
expect 0 "^ascend-sim [0-9]+\.[0-9]+\.[0-9]+ \(git [^ )]+\)$" -- --version
expect 0 "slowest +rank 0 AIV [0-9]+, ends [0-9.]+ us after launch" -- --kernel stream --set stream.cores=4 --out "$tmp/v"
[ "$(json "$tmp/v/stats.json" "(j['run']['version'] in open('/dev/stdin').read(), 'stream.cores=4' in j['run']['command_line'], j['run']['argv'][1:3])" <<<"$("$sim" --version)")" = "(True, True, ['--kernel', 'stream'])" ] && ok || bad "stats.json run: version and command line"
json "$tmp/v/stats.json" "'effective rate' in j['notes']['kernels[].ports[].utilization_pct'] and len(j['kernels'][0]['ranks'][0]['core_latency_ns']) == 4" | grep -q True && ok || bad "stats.json notes and core_latency_ns"
expect 0 "phases +dispatch, max over cores and ranks: send [0-9.]+ us \(rank [0-9]\) status .* wait .* local_copy" -- "${small[@]}"
expect 0 "phases +ffn_worker_batching, max over calls: poll .* sort .* gather .* group_list .* batching" -- --kernel ffn_worker_batching --attn-ranks 4 --bs 8 --hidden 64
expect 0 "busiest port +die0.ub_egress [0-9.]+% busy \([0-9.]+ us at its effective rate, [0-9]+ B, in ub_write\)" -- --kernel ub_write --ep 4 --set ub_write.dst=2 --set ub_write.cores=8 --set ub_write.bytes=1048576
expect 0 "total +[0-9.]+ us +\(stats.json: kernels\[2\] 'combine' round_trip.total_ns\)" -- --kernel moe "${small[@]}" --out "$tmp/mt"
json "$tmp/mt/stats.json" "j['kernels'][2]['name'] == 'combine' and j['kernels'][2]['round_trip']['total_ns'] > 0" | grep -q True && ok || bad "moe total entry"
expect 0 "^kernel +workload +dump +input +summary" -- --list-kernels
# --list-modules: the module tree of a two-die run, without simulating
tree=$("$sim" --list-modules --ep 2 2>&1) && ok || bad "--list-modules --ep 2: exit $?"
for m in cluster.die1 cluster.die1.aiv47 cluster.die1.aiv47.ub cluster.die1.aiv47.mte2 \
    cluster.die1.aiv47.mte3 cluster.die1.aiv47.vector cluster.die1.hbm cluster.die1.hccl_window \
    cluster.die1.noc cluster.fabric.die0.ub_egress cluster.fabric.die1.ub_ingress \
    cluster.fabric.die1.d2d_out cluster.fabric.node0.uplink; do
  grep -Eq "^ +$m\$" <<<"$tree" && ok || bad "--list-modules lacks $m"
done
grep -q "die2" <<<"$tree" && bad "--list-modules --ep 2 shows a third die" || ok
expect 0 "^ +cluster.fabric.die1.hccs_to_die0$" -- --list-modules --preset a2 --ep 2
# A cube kernel's dies have their AICs and L2, as the run builds them.
expect 0 "^ +cluster.die0.aic0$" -- --list-modules --kernel ffn
expect 0 "^ +cluster.die0.l2$" -- --list-modules --kernel ffn
expect 0 "^stream +- +- +- +each core" -- --list-kernels
expect 0 "^ffn_worker_batching +ffn\. +yes +- " -- --list-kernels
[ "$("$sim" --list-kernels --json | "$py" -c "import json,sys; k={x['name']: x for x in json.load(sys.stdin)}; print(k['dispatch']['dump'], k['dispatch']['input'], k['pipeline']['dump'], k['ffn_worker_batching']['workload'])")" = "True True False ffn" ] && ok || bad "--list-kernels --json"
keys=$("$sim" --list-params dispatch. ep. | grep -Eo '^[a-z_0-9]+\.[a-zA-Z_0-9]+ =' | cut -d. -f1 | sort -u | tr '\n' ' ')
[ "$keys" = "dispatch ep " ] && ok || bad "--list-params dispatch. ep.: groups $keys"
groups=$("$sim" --list-params --kernel pipeline --json | "$py" -c "import json,sys; print(sorted({p['key'].split('.')[0] for p in json.load(sys.stdin)} & {'dispatch','ffn','pipeline','stream','hbm'}))")
[ "$groups" = "['hbm', 'pipeline']" ] && ok || bad "--list-params --kernel pipeline: $groups"
expect 0 "defined in docs/sources.md" -- --list-params hbm.
"$sim" --list-params --json | "$py" -c "import json,sys; p={x['key']: x for x in json.load(sys.stdin)}; d=p['run.dump_max_MiB']; sys.exit(0 if d['unit'] == 'MiB' and d['type'] == 'int' and d['description'] else 1)" && ok || bad "--list-params --json run.dump_max_MiB"

# --- --dump: estimated before the run, refused above run.dump_max_MiB, close to what it writes
ffn_big=(--kernel ffn_worker_batching --attn-ranks 16 --micro-batches 4 --bs 64 --topk 16 --token-dtype bf16 --need-schedule 0 --mask-rate 0.3 --layers 2 --set ffn.ffn_ranks=2)
expect 2 "--dump would write about [0-9]+ MiB into '$tmp/big', above run.dump_max_MiB = 4096" -- "${ffn_big[@]}" --dump "$tmp/big"
[ ! -e "$tmp/big" ] && ok || bad "a refused --dump created its directory"
expect 2 "above run.dump_max_MiB = 1;" -- "${small[@]}" --dump "$tmp/cap" --set run.dump_max_MiB=1 --set dispatch.calls=2
dump_close() {  # dump_close NAME ARGS...: the estimate is within 10% of the bytes written
  local name=$1
  shift
  local est
  est=$("$sim" "$@" --dump "$tmp/dump_$name" 2>&1 | sed -n 's/.*(estimate: \([0-9]*\) B).*/\1/p')
  "$py" -c "import os,sys; n=sum(os.path.getsize(os.path.join(d,f)) for d,_,fs in os.walk(sys.argv[1]) for f in fs); e=int(sys.argv[2] or 0); sys.exit(0 if 0.9*n <= e <= 1.1*n else print(f'estimate {e} B, wrote {n} B') or 1)" "$tmp/dump_$name" "$est" && ok || bad "dump estimate of $name"
}
dump_close dispatch "${small[@]}" --set dispatch.calls=2
dump_close shared "${small[@]}" --experts 12 --shared-experts 1 --shared-expert-ranks 1 --quant none
dump_close combine --kernel combine "${small[@]}" --set combine.shared_expert_x=1
dump_close moe --kernel moe "${small[@]}" --set moe.layers=2
dump_close alltoallv --kernel alltoallv_dispatch "${small[@]}"
dump_close ffn --kernel ffn_worker_batching --attn-ranks 4 --bs 8 --hidden 1024 --layers 2 --token-dtype bf16 --set ffn.ffn_ranks=2
dump_close ffn_norm --kernel ffn_worker_batching --attn-ranks 4 --bs 8 --hidden 512 --need-schedule 0 --set ffn.out_num=2

# --- the fabric
expect 0 "every core saw its predecessor's flag \(16 ranks x 48 cores\)" -- --kernel flag_ring --ep 16

# --- dispatch: shorthand flags, its A3 limits, and a check that passes
expect 0 "every output of every rank matches the golden reference \(4 ranks" -- --ep 4 --bs 7 --topk 6 --experts 8 --hidden 4096 --dtype fp16 --quant none --active-tokens 5 --token-nums-type 0 --routing zipf:1.5
expect 2 "dispatch.bs = '600' .*an integer in \[1, 512\]" -- --ep 4 --bs 600
expect 2 "EP size \(--ep\) = 1 is outside the A3 limit: \[2, 768\]" -- --ep 1
expect 2 "MoE experts \(--experts\) = 10 is outside the A3 limit: a multiple of the MoE ranks" -- --ep 4 --experts 10
expect 2 "zipf:ALPHA" -- --ep 4 --experts 16 --routing zipf:x
expect 2 "needs an HCCL window of 1002438656 B" -- --set hccl.buffsize_MB=200
expect 2 "flag_ring needs ep.world_size >= 2" -- --kernel flag_ring --ep 1
expect 0 "kernel flag_ring on preset a3, 2 rank\(s\)" -- --kernel flag_ring
expect 2 "kernel stream runs on one die" -- --kernel stream --ep 2
expect 2 "ub_write.dst = 5 is not a rank of ep.world_size = 2" -- --kernel ub_write --ep 2 --set ub_write.dst=5
expect 2 "needs an HCCL window of 314573312 B \(ub_write.bytes \+ 512\) but hccl.buffsize_MB gives 209715200 B" -- --kernel ub_write --ep 2 --set ub_write.bytes=314572800 --set ub_write.chunk_bytes=65536 --set hccl.buffsize_MB=200
expect 2 "fabric.write_GBps = .200. \(from --set\) was removed: .*fabric.write_efficiency = W / fabric.port_GBps" -- --kernel ub_write --ep 2 --set fabric.write_GBps=200
expect 2 "ep.world_size = '769'" -- --kernel flag_ring --ep 769
expect 0 "outputs" -- --kernel ub_write --ep 32 --set ub_write.dst=20 --set ub_write.bytes=512 --out "$tmp/u"
[ "$(json "$tmp/u/stats.json" "(j['kernels'][0]['first_write_512B_latency_ns'], j['kernels'][0]['link_class'])")" = "(2100.0, 'inter_node')" ] && ok || bad "ub_write 512-B inter-node latency"
expect 0 "outputs" -- --kernel ub_write --ep 4 --set ub_write.dst=2 --set ub_write.cores=48 --set ub_write.bytes=50331648 --out "$tmp/u"
within "$(json "$tmp/u/stats.json" "j['kernels'][0]['bandwidth_GBps']")" 130 137 && ok || bad "ub_write saturation"

# --- .npy in and out: dump, change the routing in NumPy, replay it with --input
expect 0 "every output of every rank matches" -- --ep 4 --experts 16 --bs 8 --hidden 1024 --active-tokens 6 --dump "$tmp/np"
"$py" - "$tmp/np" <<'PY2' && ok || bad "numpy round trip of the dump"
import numpy as np, sys
d = sys.argv[1]
assert np.load(d + "/rank0/expand_x.npy").dtype == np.int8
assert np.load(d + "/rank0/expand_x.npy").shape == (8 * 4 * 4, 1024)
assert np.load(d + "/rank1/x_active_mask.npy").sum() == 6
for r in range(4):  # every token of every rank now goes to experts 12..15 (rank 3) and 0 (rank 0)
    ids = np.load(d + f"/rank{r}/expert_ids.npy")
    ids[:] = np.array([12, 13, 14, 15, 0, 1, 2, 3], dtype=np.int32)
    np.save(d + f"/rank{r}/expert_ids.npy", ids)
PY2
expect 0 "every output of every rank matches" -- --ep 4 --experts 16 --bs 8 --hidden 1024 --input "$tmp/np" --dump "$tmp/np2"
"$py" -c "import numpy as np; c=np.load('$tmp/np2/rank3/expert_token_nums.npy'); import sys; sys.exit(0 if list(c)==[24,24,24,24] else 1)" && ok || bad "replayed routing not honoured"
"$py" -c "import numpy as np; d='$tmp/np/rank2'; np.save(d+'/expert_ids.npy', np.zeros((3,8), np.int32))"
expect 2 "expert_ids.npy: is <i4 \(3,8\); expected <i4 \(8,8\)" -- --ep 4 --experts 16 --bs 8 --hidden 1024 --input "$tmp/np"
expect 2 "cannot be read" -- --ep 4 --experts 16 --bs 8 --hidden 1024 --input "$tmp/nowhere"
here=$(cd "$(dirname "$0")/../.." && pwd)
expect 0 "every output of every rank matches" -- --ep 4 --experts 16 --bs 8 --hidden 1024 --input "$here/traces/inputs/dispatch_ep4_zipf"

# --- combine, the moe round trip and the alltoallv baseline
c=(--ep 4 --experts 16 --bs 8 --hidden 1024)
expect 0 "x_out of every rank matches the golden reference" -- --kernel combine "${c[@]}" --comm-quant int8
expect 2 "combine.comm_quant = 'int4'" -- --kernel combine "${c[@]}" --comm-quant int4
expect 2 "shared_expert_x is allowed only without shared-expert ranks" -- --kernel combine --ep 4 --experts 12 --bs 8 --hidden 1024 --shared-experts 1 --shared-expert-ranks 2 --set combine.shared_expert_x=1
expect 2 "--attn-ranks does not apply to kernel combine" -- --kernel combine "${c[@]}" --attn-ranks 4
expect 2 "MoE experts only" -- --kernel alltoallv_dispatch --ep 4 --experts 12 --bs 8 --hidden 1024 --shared-experts 1 --shared-expert-ranks 2
expect 0 "total +[0-9.]+ us" -- --kernel moe "${c[@]}" --set moe.expert_us=3 --dump "$tmp/moe" --out "$tmp/moe_out"
[ "$(json "$tmp/moe_out/stats.json" "[k['name'] for k in j['kernels']]")" = "['dispatch', 'experts', 'combine']" ] && ok || bad "moe kernel entries"
within "$(json "$tmp/moe_out/stats.json" "j['kernels'][1]['latency_ns']")" 2999 3001 && ok || bad "experts time"
"$py" - "$tmp/moe" <<'PY' && ok || bad "moe --dump shapes"
import numpy as np, sys
d = sys.argv[1]
assert np.load(f"{d}/combine/rank0/x_out.npy").shape == (8, 1024)
assert np.load(f"{d}/combine/rank0/expand_x.npy").shape == (4 * 8 * 4, 1024)
assert np.load(f"{d}/combine/rank0/expert_scales.npy").dtype == np.float32
assert np.load(f"{d}/dispatch/rank0/expand_x.npy").dtype == np.int8
PY
# combine replays the round trip's combine inputs and must give the same x_out
expect 0 "x_out of every rank matches" -- --kernel combine "${c[@]}" --input "$tmp/moe/combine" --dump "$tmp/replay"
cmp -s "$tmp/moe/combine/rank2/x_out.npy" "$tmp/replay/rank2/x_out.npy" && ok || bad "combine replay x_out"
"$py" - "$tmp/moe/combine/rank1" <<'PY' && ok || bad "corrupting assist_info"
import numpy as np, sys
a = np.load(f"{sys.argv[1]}/assist_info_for_combine.npy"); a[1] = 99; np.save(f"{sys.argv[1]}/assist_info_for_combine.npy", a)
PY
expect 2 "rank 1, assist_info_for_combine row 0 = \(.*, 99, .*\) names no active" -- --kernel combine "${c[@]}" --input "$tmp/moe/combine"
expect 0 "match the golden chain" -- --kernel moe "${c[@]}" --set moe.dispatch=alltoallv --comm-quant int8

# --- V3: every new tensor dumped and replayed, dead ranks, the TP limit
v3=(--ep 6 --experts 12 --bs 8 --hidden 1024 --zero-experts 1 --copy-experts 1 --const-experts 1
    --mask 2d --expert-scales 1 --smooth-scales 1 --set dispatch.special_weight=3 --quiet)
expect 0 "every output of every rank matches" -- "${v3[@]}" --dead-ranks 2 --scale-down 1 --dump "$tmp/v3"
[ ! -e "$tmp/v3/rank2" ] && ok || bad "a dead rank's tensors dumped"
"$py" - "$tmp/v3/rank3" <<'PY' && ok || bad "V3 tensors in the dump"
import numpy as np, sys
d = sys.argv[1]
assert np.load(f"{d}/x_active_mask.npy").shape == (8, 8)
assert np.load(f"{d}/expert_scales.npy").shape == (8, 8)
assert np.load(f"{d}/scales.npy").shape == (12, 1024)  # E0 = 12: kept after the scale-down
e = np.load(f"{d}/elastic_info.npy")
assert list(e[:4]) == [1, 5, 0, 10] and list(e[4:10]) == [0, 1, -1, 2, 3, 4], e
assert np.load(f"{d}/expand_scales.npy").dtype == np.float32
PY
expect 0 "every output of every rank matches" -- "${v3[@]}" --dead-ranks 2 --scale-down 1 --input "$tmp/v3"
expect 0 "x_out of every rank matches" -- --kernel combine "${v3[@]}" --set combine.const_alpha=softmax
expect 3 "dead ranks 4 \(fault.dead_ranks\) run nothing" -- "${v3[@]}" --dead-ranks 4 --set sim.poll_timeout_us=200
expect 2 "tp = 2 needs one MoE expert per MoE rank \(L = 1" -- --tp 2
expect 2 "no MoE expert rank would be left" -- --ep 4 --experts 8 --dead-ranks 0-3 --scale-down 1
expect 2 "top-K \(--topk\) = 8 is above the 6 MoE experts left \(K <= E\)" -- --ep 4 --experts 8 --dead-ranks 2 --scale-down 1

# --- TP = 2: the tp tensors dumped and replayed, the round trip, the limits
tp=(--ep 3 --experts 3 --bs 8 --hidden 1024 --topk 2 --tp 2 --quiet)
expect 0 "every output of every rank matches the golden reference \(3 ranks x TP 2" -- "${tp[@]}" --dump "$tmp/tp"
"$py" - "$tmp/tp" <<'PY' && ok || bad "TP tensors in the dump"
import numpy as np, sys
d = sys.argv[1]
for g in range(6):  # EP 3 x TP 2 dies; A = BS x W x min(L, K) = 24 rows, the peer's after them
    r = f"{d}/rank{g}"
    tp = np.load(f"{r}/tp_recv_counts.npy"); ep = np.load(f"{r}/ep_recv_counts.npy")
    assert tp.shape == (2,) and ep.shape == (6,), (tp.shape, ep.shape)
    assert tp[g % 2] == ep[2] and tp[1 - g % 2] == ep[5], (g, tp, ep)
    peer = np.load(f"{d}/rank{g ^ 1}/ep_recv_counts.npy")
    assert list(ep[3:]) == list(peer[:3]), (g, ep, peer)
    assert np.load(f"{r}/expand_x.npy").shape == (48, 1024)
    assert np.load(f"{r}/dynamic_scales.npy").shape == (48,)
    assert np.load(f"{r}/expert_token_nums.npy")[0] == tp.sum()
PY
expect 0 "every output of every rank matches" -- "${tp[@]}" --input "$tmp/tp"
expect 0 "match the golden chain \(3 ranks x TP 2" -- --kernel moe "${tp[@]}" --dump "$tmp/tpmoe"
"$py" - "$tmp/tpmoe" <<'PY' && ok || bad "TP tensors of the round trip"
import numpy as np, sys
d = sys.argv[1]
for g in range(6):
    sent = np.load(f"{d}/combine/rank{g}/tp_send_counts.npy")
    assert list(sent) == list(np.load(f"{d}/dispatch/rank{g}/tp_recv_counts.npy")), g
    assert np.load(f"{d}/combine/rank{g}/expand_x.npy").shape == (48, 1024)
PY
expect 0 "x_out of every rank matches the golden reference \(3 ranks x TP 2" -- --kernel combine "${tp[@]}" --input "$tmp/tpmoe/combine"
expect 2 "communication quantization .* is tp < 2 only" -- --kernel combine "${tp[@]}" --comm-quant int8
expect 2 "elastic scale-down is tp = 1 only" -- "${tp[@]}" --dead-ranks 1 --scale-down 1

# --- properties, through the CLI
lat() { "$sim" --kernel pipeline "$@" --out "$tmp/p" >/dev/null 2>&1 && json "$tmp/p/stats.json" "j['kernels'][0]['latency_ns']"; }
bw() { "$sim" --kernel stream "$@" --out "$tmp/p" >/dev/null 2>&1 && json "$tmp/p/stats.json" "j['kernels'][0]['bandwidth_GBps']"; }
one=$(lat --set pipeline.buffer_num=1); two=$(lat --set pipeline.buffer_num=2)
within "$("$py" -c "print($one/$two)")" 1.4 3.0 && ok || bad "double buffer speed-up $one/$two"
one=$(lat --set pipeline.buffer_num=1 --set pipeline.vector_repeats=5120)
two=$(lat --set pipeline.buffer_num=2 --set pipeline.vector_repeats=5120)
within "$("$py" -c "print($one/$two)")" 1.0 1.2 && ok || bad "dominated speed-up $one/$two"
full=$(bw --set stream.cores=48); half=$(bw --set stream.cores=48 --set hbm.bandwidth_GBps=800)
within "$full" 1440 1600 && ok || bad "48-core bandwidth $full"
within "$("$py" -c "print($half/$full)")" 0.47 0.53 && ok || bad "halved HBM: $half vs $full"
single=$(bw --set stream.cores=1 --set stream.tile_bytes=65536 --set stream.bytes_per_core=4194304)
# bound by the outstanding reads: mte2.outstanding_bytes / hbm.read_latency_ns = 74.8 GB/s
within "$single" 67.3 74.9 && ok || bad "1-core bandwidth $single"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
