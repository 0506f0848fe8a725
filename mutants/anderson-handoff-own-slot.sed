# The Anderson hand-off stores the next ticket into the owner's slot
# instead of the next one: the next waiter never sees it.
# file: sys/kern/kern_mplock_anderson.h
# backend: anderson
# tests: mutex
s/mpl_store_release(MPL_SLOT(mpl, t), t);/mpl_store_release(MPL_SLOT(mpl, t - 1), t);/
