#!/usr/bin/env bash
# ffn_worker_batching through the CLI: exit statuses, --check, --dump files and their shapes.
set -u
BIN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
expect() {  # expect STATUS DESCRIPTION ARGS...
  local want=$1 what=$2
  shift 2
  "$BIN" --kernel ffn_worker_batching "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: $what: exit $got, want $want"; cat "$TMP/err"; fail=1
  else
    echo "ok: $what"
  fi
}
expect 0 "default scenario checks" --hidden 512
expect 0 "NORM bf16 masked" --need-schedule 0 --token-dtype bf16 --mask-rate 0.3 --attn-ranks 4 --bs 8 --hidden 64
expect 2 "A above 1024" --attn-ranks 1025
expect 2 "M above 64" --micro-batches 65
expect 2 "topK + 1 above 64" --topk 64
expect 2 "A + F above the cluster's 768 dies" --attn-ranks 800
expect 2 "bad token dtype" --token-dtype fp8
expect 2 "out_num in RECV" --set ffn.out_num=3
expect 3 "a missing flag is a hang" --attn-ranks 4 --bs 8 --hidden 64 --set ffn.drop_rank=1 --set sim.poll_timeout_us=100
expect 0 "--dump" --attn-ranks 4 --bs 8 --topk 8 --hidden 64 --micro-batches 1 --token-dtype int8 --dump "$TMP/d"
/usr/bin/python3 - "$TMP/d" <<'PY' || fail=1
import sys, numpy as np
d = sys.argv[1] + "/ffn_rank0/"
want = {"token_info": (4, 1, 2 + 8 * 9), "token_data": (4, 1, 8, 9, 512), "y": (288, 64),
        "group_list": (65, 2), "session_ids": (288,), "micro_batch_ids": (288,),
        "token_ids": (288,), "expert_offsets": (288,), "dynamic_scale": (288,),
        "actual_token_num": ()}
for name, shape in want.items():
    a = np.load(d + name + ".npy")
    assert a.shape == shape, (name, a.shape, shape)
n = int(np.load(d + "actual_token_num.npy"))
gl = np.load(d + "group_list.npy")
assert gl[:, 1].sum() == n == 288, (gl[:, 1].sum(), n)
ids = np.load(d + "token_info.npy")[:, 0, 2:].reshape(-1)
assert sorted(ids[ids < 1000000].tolist()) == np.repeat(gl[gl[:, 1] > 0, 0], gl[gl[:, 1] > 0, 1]).tolist()
print("ok: --dump shapes and group_list consistent with token_info")
PY
exit $fail
