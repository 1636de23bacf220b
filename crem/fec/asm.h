/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the assembly kernels need from their platform: the kernel's linkage
 * macros in crem.ko, equivalents in userspace.  This is to assembly what
 * crem/core/port.h is to C.
 */
#ifndef CREM_FEC_ASM_H
#define CREM_FEC_ASM_H

#ifdef __KERNEL__
#include <linux/linkage.h>
#else
#define SYM_FUNC_START(name)	\
	.globl name;		\
	.type name, @function;	\
	.p2align 4;		\
	name:
#define SYM_FUNC_END(name)	.size name, .-name
#define RET			ret
	.section .note.GNU-stack, "", @progbits
#endif

#endif /* CREM_FEC_ASM_H */
