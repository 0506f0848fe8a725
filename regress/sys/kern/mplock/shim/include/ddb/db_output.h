#include <machine/db_machdep.h>
