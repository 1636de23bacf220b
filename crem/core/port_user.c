// SPDX-License-Identifier: GPL-2.0
/* Userspace side of crem/core/port.h. */
#include "port.h"

unsigned long crem_port_warnings;
