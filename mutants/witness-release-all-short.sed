# __mp_release_all() tells WITNESS one level fewer than it releases.
# file: sys/kern/kern_mplock.c
# backend: mlock
# tests: lockorder
s/for (i = 0; i < rv; i++)/for (i = 1; i < rv; i++)/
