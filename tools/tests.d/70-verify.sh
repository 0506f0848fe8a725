# verify: the Spin models of the lock protocol (SC with the OpenBSD
# semantics, liveness, weak memory), their mutants and coverage checks,
# the model-to-source mapping and hashes, the herd7 litmus tests of
# every architecture with their mutants, and the ThreadSanitizer build;
# the same checks as "make verify" (tools/verify.sh).

. "$ROOT/tools/lib/verify.sh"
. "$ROOT/tools/lib/vendor.sh"
. "$ROOT/tools/lib/herd.sh"
. "$ROOT/tools/lib/litmus.sh"
mkdir -p "$VOBJ"
: >"$VERIFY_TABLE"
verify_mapping
verify_litmus
verify_models
verify_tsan
verify_table
