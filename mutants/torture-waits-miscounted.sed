# The torture's histogram of turn waits sets its bucket instead of
# counting in it: the turns it reports no longer add up to those taken,
# which the torture itself and the harness's reading of its line check.
# file: sys/kern/kern_mplock_torture.c
# backend: mlock
# tests: torture
s/^\tmc->mc_waitn\[h\]++;/\tmc->mc_waitn[h] = 1;/
