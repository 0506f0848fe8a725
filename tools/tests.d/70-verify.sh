# verify: the Spin models with their mutants and covers, the model's
# MAPPING and hashes, the herd7 litmus tests of every architecture with
# their mutants, and the ThreadSanitizer build with its seeded races:
# "make verify" (tools/verify.sh).

. "$ROOT/tools/lib/verify.sh"
verify_run all
