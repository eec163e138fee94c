/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A marker for insn_count.so: the plugin watches for the guest executing
 * this program's first instruction, at an address no other program uses
 * (set at link time), and the program does nothing else but exit.
 */
	.text
	.globl	_start
_start:
	nop
	mov	$60, %eax	/* exit(0) */
	xor	%edi, %edi
	syscall
