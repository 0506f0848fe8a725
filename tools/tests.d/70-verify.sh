# verify: the Spin models of the lock protocol (SC with the OpenBSD
# semantics, liveness, weak memory), their mutants and coverage checks,
# the model-to-source mapping and hashes, and the ThreadSanitizer build;
# the same checks as "make verify" (tools/verify.sh).

. "$ROOT/tools/lib/verify.sh"
mkdir -p "$VOBJ"
: >"$VERIFY_TABLE"
verify_mapping
verify_models
verify_tsan
verify_table
