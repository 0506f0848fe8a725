# __mp_lock_held() forgets the depth: an idle CPU whose old word still
# matches looks like the owner.
# file: sys/kern/kern_mplock.h
# backend: mlock mcs anderson
# tests: fifo recurse torture
s/return (c->mplc_depth > 0 && mpl_load(c->mplc_wait) == c->mplc_want);/return (*c->mplc_wait == c->mplc_want);/
