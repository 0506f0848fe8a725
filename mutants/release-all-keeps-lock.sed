# __mp_release_all() clears the depth but never hands the lock on.
# file: sys/kern/kern_mplock.c
# backend: all
# tests: recurse
/c->mplc_depth = 0;/{
n
s/k = mpl_be_release(mpl, c);/;/
}
