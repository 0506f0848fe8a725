/*
 * Userland shim: the real MI header, from the tree this regress lives
 * in, without putting the kernel's sys/ on the include path.
 */
#include "../../../../../../../sys/sys/mplock.h"
