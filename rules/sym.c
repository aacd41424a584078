#include "sym.h"
