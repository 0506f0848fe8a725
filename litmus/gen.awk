# Litmus tests from the patterns: one test of pattern PAT for
# architecture ARCH, written with that architecture's instruction
# sequences (the table below), with mutant MUT applied ("" for none).
#
#	awk -v ARCH=arm64 -v PAT=mcs-link [-v MUT=swap-rel] -f gen.awk patterns
#
# The table: what each primitive of sys/kern/kern_mplock.h (and the one
# atomic(9) call, atomic_inc_int_nv) compiles to on each architecture,
# from its sys/arch/<arch>/include/mplock.h or, for the MI fallbacks,
# from OpenBSD's atomic.h and membar for that architecture (README.md
# names the files).  Loops are unrolled once: a store-conditional that
# fails ends the execution (its status is part of the condition), a
# wait is one load whose value the condition fixes.  Dependencies are
# not modelled (a test is never stronger than the code).
#
# Pattern operations (patterns file):
#	st LOC V		plain store (C assignment, mpl_store_ptr)
#	ld R LOC		plain load (mpl_load, mpl_load_ptr, the wait)
#	swap R LOC V		mpl_swap_ptr
#	cas R LOC O N		mpl_cas_ptr_release (R: the old value)
#	strel LOC V		mpl_store_release
#	stptrrel LOC V		mpl_store_ptr_release
#	acq			mpl_acquire
#	inc LOC			atomic_inc_int_nv (its value unused)
#
# The tech@ series' M-lock (in kern_lock.c, tools/series/mlock.awk)
# uses the stock primitives directly, as each architecture's
# <machine/atomic.h> has them (klsrc() says where from), not ours:
#	acas R LOC O N		atomic_cas_ptr (R: the old value)
#	mexit-ba		membar_exit_before_atomic()
#	menter-aa		membar_enter_after_atomic() after the CAS
#	spin R LOC		one load of the wait, and the loop's branch on
#				the value it read (powerpc's isync needs it)
#	menter-spin		membar_enter_after_atomic() after the wait
#	mexit			membar_exit()
#
# Mutants (MUT), the barrier or ordering removed or weakened:
#	swap-rel swap-acq	the swap's release or acquire half
#	swap-acq-nodep		powerpc: the swap's isync without the
#				branch on the loaded value before it
#	swap-split		the swap as a plain load and store
#	cas-rel			the compare-and-swap's release
#	strel			mpl_store_release as a plain store
#	ptrrel			mpl_store_ptr_release as a plain store
#	acq			mpl_acquire
#	acq-weak		mpl_acquire weakened (loads only), where
#				the architecture has a weaker barrier
#	inc-split		the increment as a plain load and store
#	kl-cas-split		acas as a plain load, compare and store
#	kl-exit-ba kl-enter-aa kl-enter-spin kl-exit
#				that barrier of the M-lock in kern_lock.c

function die(m) {
	print "gen.awk: " m >"/dev/stderr"
	err = 1
	exit 1
}

function has(m) { return (MUT == m) }

# Herd's name of the architecture and the model's file.
function archinfo() {
	if (ARCH == "amd64" || ARCH == "i386") {
		HARCH = "X86_64"; MODEL = "x86tso.cat"
	} else if (ARCH == "arm64" || ARCH == "arm64-lse") {
		HARCH = "AArch64"; MODEL = "aarch64.cat"
	} else if (ARCH == "riscv64") {
		HARCH = "RISCV"; MODEL = "riscv.cat"
	} else if (ARCH == "powerpc64" || ARCH == "powerpc") {
		HARCH = "PPC"; MODEL = "ppc.cat"
	} else if (ARCH == "mips64") {
		HARCH = "MIPS"; MODEL = "mips.cat"
	} else if (ARCH == "arm") {
		HARCH = "ARM"; MODEL = "arm.cat"
	} else
		die("unknown architecture " ARCH)
}

# Where the sequences come from (printed into each test).
function archsrc() {
	if (ARCH == "amd64" || ARCH == "i386")
		return ("sys/arch/" ARCH "/include/mplock.h (xchg; plain " \
		    "stores and loads under TSO); atomic_inc_int_nv: OpenBSD " \
		    "sys/arch/" ARCH "/include/atomic.h, lock xadd (modelled " \
		    "as lock inc: its value is not used here); herd's X86_64 " \
		    "front end for both")
	if (ARCH == "arm64")
		return ("sys/arch/arm64/include/mplock.h without LSE " \
		    "(ldaxr/stlxr swap, ldxr/stlxr CAS, stlr, dmb ishld); " \
		    "atomic_inc_int_nv: OpenBSD sys/sys/atomic.h " \
		    "__sync_add_and_fetch, an ldaxr/stlxr loop from clang")
	if (ARCH == "arm64-lse")
		return ("sys/arch/arm64/include/mplock.h with LSE " \
		    "(swpal, casl, stlr, dmb ishld); atomic_inc_int_nv: " \
		    "OpenBSD sys/sys/atomic.h __sync_add_and_fetch, ldaddal")
	if (ARCH == "riscv64")
		return ("sys/arch/riscv64/include/mplock.h (amoswap.d.aqrl, " \
		    "lr.d/sc.d.rl, fence rw,w, fence r,rw); atomic_inc_int_nv: " \
		    "OpenBSD sys/sys/atomic.h __sync_add_and_fetch, " \
		    "amoadd.aqrl")
	if (ARCH == "powerpc64" || ARCH == "powerpc")
		return ("sys/arch/" ARCH "/include/mplock.h (lwsync, " \
		    "reservation loop, isync; lwsync before stores; lwsync " \
		    "acquire); herd's PPC front end has only the word-sized " \
		    "lwarx/stwcx., which order as ldarx/stdcx. do; " \
		    "atomic_inc_int_nv: a lwarx/stwcx. loop without barriers")
	if (ARCH == "mips64")
		return ("MI fallbacks of sys/kern/kern_mplock.h; membar_*: " \
		    "OpenBSD sys/sys/atomic.h __sync_synchronize(), sync " \
		    "(mips64 defines none); atomic_swap_ptr, atomic_cas_ptr, " \
		    "atomic_add_int_nv: OpenBSD sys/arch/mips64/include/" \
		    "atomic.h, lld/scd and ll/sc loops without barriers " \
		    "(herd's MIPS front end has only the word-sized ll/sc)")
	return ("MI fallbacks of sys/kern/kern_mplock.h; membar_enter, " \
	    "membar_exit, membar_sync: OpenBSD sys/arch/arm/include/" \
	    "atomic.h, dmb sy (herd: DMB); atomic_swap_ptr, " \
	    "atomic_cas_ptr, atomic_inc_int_nv: the same file, ldrex/strex " \
	    "loops without barriers")
}

# Where the tech@ series' M-lock's sequences come from: OpenBSD's
# barriers and atomic_cas_ptr as each architecture defines them.
function klsrc() {
	if (ARCH == "amd64" || ARCH == "i386")
		return ("OpenBSD sys/arch/" ARCH "/include/atomic.h: " \
		    "membar_exit(), membar_exit_before_atomic() and " \
		    "membar_enter_after_atomic() compiler barriers, " \
		    "atomic_cas_ptr lock cmpxchg")
	if (ARCH == "arm64")
		return ("OpenBSD arm64: every membar_*() dmb sy; " \
		    "atomic_cas_ptr the generic __sync_val_compare_and_swap," \
		    " an ldaxr/stlxr loop from clang without LSE")
	if (ARCH == "arm64-lse")
		return ("OpenBSD arm64: every membar_*() dmb sy; " \
		    "atomic_cas_ptr __sync_val_compare_and_swap, casal " \
		    "with LSE")
	if (ARCH == "riscv64")
		return ("OpenBSD riscv64: membar_exit() fence rw,w, " \
		    "membar_enter() fence w,rw (the _atomic variants are " \
		    "these); atomic_cas_ptr __sync_val_compare_and_swap, " \
		    "lr.d.aqrl/sc.d.rl")
	if (ARCH == "powerpc64" || ARCH == "powerpc")
		return ("OpenBSD " ARCH ": membar_exit() sync, " \
		    "membar_enter() isync (the _atomic variants are these); " \
		    "atomic_cas_ptr a reservation loop without barriers " \
		    "(herd: lwarx/stwcx.); isync after a branch on the " \
		    "value loaded")
	if (ARCH == "mips64")
		return ("OpenBSD sys/sys/atomic.h: every membar_*() " \
		    "__sync_synchronize(), sync; atomic_cas_ptr: " \
		    "sys/arch/mips64/include/atomic.h, an ll/sc loop without " \
		    "barriers")
	return ("OpenBSD sys/arch/arm/include/atomic.h: every membar_*() " \
	    "dmb sy; atomic_cas_ptr an ldrex/strex loop without barriers")
}

# The stock barriers: membar_exit() (and _before_atomic), and
# membar_enter() (and _after_atomic).
function stock_exit() {
	if (HARCH == "X86_64") return ""
	if (HARCH == "AArch64") return "DMB SY"
	if (HARCH == "ARM") return "DMB"
	if (HARCH == "RISCV") return "fence rw,w"
	return "sync"
}
function stock_enter() {
	if (HARCH == "X86_64") return ""
	if (HARCH == "AArch64") return "DMB SY"
	if (HARCH == "ARM") return "DMB"
	if (HARCH == "RISCV") return "fence w,rw"
	if (HARCH == "PPC") return "isync"
	return "sync"
}

# The wait's load, and on powerpc the loop's branch on its value.
function op_spin(r, loc,    l) {
	load(r, loc)
	if (HARCH == "PPC") {
		l = label()
		I("cmpw " r "," r)
		I("bne " l)
		I(l ":")
	}
}

# atomic_cas_ptr as the stock <machine/atomic.h> has it.
function op_acas(r, loc, o, n,    tmp, c) {
	tmp = rtmp()
	c = rcmp()
	if (has("kl-cas-split")) {
		# A load and a store, no atomicity; it stored if it read O.
		load(r, loc)
		casok[t] = r "=" o
		li(tmp, n)
		store_reg(loc, tmp)
		return
	}
	if (HARCH == "X86_64") {
		if (r != "RAX") die("acas result must be r0 on x86")
		I("MOVQ $" o ",RAX")
		I("MOVQ $" n "," tmp)
		I("LOCK CMPXCHGQ [" loc "]," tmp)
		casok[t] = "RAX=" o
		return
	}
	if (ARCH == "arm64-lse") {
		li(r, o)
		li(tmp, n)
		I("CASAL " r "," tmp ",[" A(loc) "]")
		casok[t] = r "=" o
		return
	}
	li(tmp, n)
	li(c, o)
	if (HARCH == "AArch64")
		cas_body(r, loc, c, tmp, "LDAXR", "STLXR")
	else
		cas_body(r, loc, c, tmp, "lr.d.aqrl", "sc.d.rl")
}

# Registers: result i, address of location j, a scratch value, the
# status of store-conditional k, the compare operand.
function rres(i) {
	if (HARCH == "X86_64") return (i == 0 ? "RAX" : i == 1 ? "RCX" : \
	    i == 2 ? "RDX" : "RSI")
	if (HARCH == "AArch64") return ("X" i)
	if (HARCH == "ARM") return ("R" i)
	if (HARCH == "RISCV") return ("x" (5 + i))
	if (HARCH == "MIPS") return ("$" (1 + i))
	return ("r" (1 + i))
}
function raddr(j) {
	if (HARCH == "AArch64") return ("X" (10 + j))
	if (HARCH == "ARM") return ("R" (3 + j))
	if (HARCH == "RISCV") return ("x" (10 + j))
	if (HARCH == "MIPS") return ("$" (10 + j))
	return ("r" (10 + j))
}
function rtmp() {
	if (HARCH == "X86_64") return "RBX"
	if (HARCH == "AArch64") return "X20"
	if (HARCH == "ARM") return "R8"
	if (HARCH == "RISCV") return "x20"
	if (HARCH == "MIPS") return "$20"
	return "r20"
}
function rcmp() {
	if (HARCH == "X86_64") return "RDI"
	if (HARCH == "AArch64") return "X21"
	if (HARCH == "ARM") return "R11"
	if (HARCH == "RISCV") return "x21"
	if (HARCH == "MIPS") return "$21"
	return "r21"
}
function rstat(k) {
	if (HARCH == "AArch64") return ("W" (25 + k))
	if (HARCH == "ARM") return ("R" (9 + k))
	if (HARCH == "RISCV") return ("x" (25 + k))
	if (HARCH == "MIPS") return ("$" (25 + k))
	return ("r" (25 + k))
}
function rstatc(k) {
	if (HARCH == "AArch64") return ("X" (25 + k))
	return (rstat(k))
}

# Emit instruction s for thread t; per-thread condition parts.
function I(s) { code[t, ++ncode[t]] = s }
function okcond(s) { cond[t] = cond[t] " /\\ " t ":" s }
function A(loc) {
	if (!((t, loc) in addr)) {
		addr[t, loc] = raddr(naddr[t]++)
		init = init " " t ":" addr[t, loc] "=" loc ";"
	}
	return (addr[t, loc])
}
function label() { return ("L" t (nlab[t]++)) }

# A full or one-way barrier by name.
function fence(f) {
	if (f == "") return
	I(f)
}

# Constant v into the scratch register (or register r).
function li(r, v) {
	if (HARCH == "AArch64" || HARCH == "ARM") I("MOV " r ",#" v)
	else if (HARCH == "X86_64") I("MOVQ $" v "," r)
	else if (HARCH == "RISCV") I("ori " r ",x0," v)
	else if (HARCH == "MIPS") I("li " r "," v)
	else I("li " r "," v)
}
function store(loc, v,    r) {
	if (HARCH == "X86_64") { I("MOVQ $" v ",[" loc "]"); return }
	r = rtmp()
	li(r, v)
	if (HARCH == "AArch64" || HARCH == "ARM") I("STR " r ",[" A(loc) "]")
	else if (HARCH == "RISCV") I("sd " r ",0(" A(loc) ")")
	else if (HARCH == "MIPS") I("sw " r ",0(" A(loc) ")")
	else if (ARCH == "powerpc64") I("std " r ",0(" A(loc) ")")
	else I("stw " r ",0(" A(loc) ")")
}
function load(r, loc) {
	if (HARCH == "X86_64") I("MOVQ [" loc "]," r)
	else if (HARCH == "AArch64" || HARCH == "ARM")
		I("LDR " r ",[" A(loc) "]")
	else if (HARCH == "RISCV") I("ld " r ",0(" A(loc) ")")
	else if (HARCH == "MIPS") I("lw " r ",0(" A(loc) ")")
	else if (ARCH == "powerpc64") I("ld " r ",0(" A(loc) ")")
	else I("lwz " r ",0(" A(loc) ")")
}

# The MI fallbacks' barriers: membar_exit/enter/sync.  arm: dmb sy for
# all three (arm/include/atomic.h); mips64: sync (sys/sys/atomic.h's
# __sync_synchronize(); mips64/include/atomic.h defines no membar).
function mibar() { return (HARCH == "ARM" ? "DMB" : "sync") }

# Load-linked / store-conditional pair for RMW operations of LL/SC
# architectures; ld and sc name the instructions.  The store's value
# is in register v.
function llsc(r, loc, v, lld, ssc,    k, l) {
	k = nstat[t]++
	if (HARCH == "AArch64") {
		I(lld " " r ",[" A(loc) "]")
		I(ssc " " rstat(k) "," v ",[" A(loc) "]")
		okcond(rstatc(k) "=0")
	} else if (HARCH == "ARM") {
		I("LDREX " r ",[" A(loc) "]")
		I("STREX " rstat(k) "," v ",[" A(loc) "]")
		okcond(rstatc(k) "=0")
	} else if (HARCH == "RISCV") {
		I(lld " " r ",0(" A(loc) ")")
		I(ssc " " rstat(k) "," v ",0(" A(loc) ")")
		okcond(rstatc(k) "=0")
	} else if (HARCH == "MIPS") {
		I("ll " r ",0(" A(loc) ")")
		I("addu " rstat(k) "," v ",$0")
		I("sc " rstat(k) ",0(" A(loc) ")")
		okcond(rstatc(k) "=1")
	} else {
		# PPC: a failed stwcx. branches to the end of the thread
		# (the real loop retries); the status register is set only
		# on the path that went on.
		l = "Lfail" t
		I("lwarx " r ",r0," A(loc))
		I("stwcx. " v ",r0," A(loc))
		I("bne " l)
		I("li " rstat(k) ",1")
		okcond(rstatc(k) "=1")
		fail[t] = l
	}
}

function op_swap(r, loc, v,    tmp, l) {
	tmp = rtmp()
	if (has("swap-split")) {
		load(r, loc)
		store(loc, v)
		return
	}
	if (HARCH == "X86_64") {
		# xchg with a memory operand: locked, a full barrier.
		I("MOVQ $" v "," r)
		I("XCHGQ " r ",[" loc "]")
	} else if (ARCH == "arm64-lse") {
		li(tmp, v)
		I((has("swap-rel") ? (has("swap-acq") ? "SWP" : "SWPA") : \
		    has("swap-acq") ? "SWPL" : "SWPAL") " " tmp "," r ",[" \
		    A(loc) "]")
	} else if (ARCH == "arm64") {
		li(tmp, v)
		llsc(r, loc, tmp, has("swap-acq") ? "LDXR" : "LDAXR",
		    has("swap-rel") ? "STXR" : "STLXR")
	} else if (HARCH == "RISCV") {
		li(tmp, v)
		I("amoswap.d" (has("swap-acq") ? "" : ".aq") \
		    (has("swap-rel") ? "" : ".rl") " " r "," tmp ",(" A(loc) ")")
	} else if (HARCH == "PPC") {
		li(tmp, v)
		if (!has("swap-rel")) fence("lwsync")
		llsc(r, loc, tmp)
		# A branch on the loaded value, then isync.  Mutant
		# swap-acq-nodep: isync after the loop's branch only (on
		# the stwcx. result).
		if (!has("swap-acq")) {
			if (!has("swap-acq-nodep")) {
				l = label()
				I("cmpw " r "," r)
				I("bne " l)
				I(l ":")
			}
			fence("isync")
		}
	} else {
		# MI: membar_exit, atomic_swap_ptr (LL/SC, no barrier),
		# membar_enter.
		li(tmp, v)
		if (!has("swap-rel")) fence(mibar())
		llsc(r, loc, tmp)
		if (!has("swap-acq")) fence(mibar())
	}
}

function op_cas(r, loc, o, n,    tmp, c) {
	tmp = rtmp()
	c = rcmp()
	if (HARCH == "X86_64") {
		if (r != "RAX") die("cas result must be r0 on x86")
		I("MOVQ $" o ",RAX")
		I("MOVQ $" n "," tmp)
		I("LOCK CMPXCHGQ [" loc "]," tmp)
		casok[t] = "RAX=" o
		return
	}
	if (ARCH == "arm64-lse") {
		li(r, o)
		li(tmp, n)
		I((has("cas-rel") ? "CAS " : "CASL ") r "," tmp ",[" A(loc) "]")
		casok[t] = r "=" o
		return
	}
	li(tmp, n)
	li(c, o)
	if (HARCH == "PPC" || HARCH == "ARM" || HARCH == "MIPS")
		if (!has("cas-rel")) fence(HARCH == "PPC" ? "lwsync" : mibar())
	if (HARCH == "AArch64")
		cas_body(r, loc, c, tmp, "LDXR", has("cas-rel") ? "STXR" : "STLXR")
	else
		cas_body(r, loc, c, tmp, "lr.d", has("cas-rel") ? "sc.d" : "sc.d.rl")
}

# The load-linked, the compare, the store-conditional of a
# compare-and-swap of register c's value for register tmp's: a failed
# compare skips the store, as the real loop does, and leaves the status
# register as initialised: "failed".  ld and st are the load and store
# instructions on AArch64 and RISC-V (the others have one each).
function cas_body(r, loc, c, tmp, ld, st,    l, k) {
	l = label()
	if (HARCH == "AArch64" || HARCH == "ARM" || HARCH == "RISCV")
		init = init " " t ":" rstatc(nstat[t]) "=1;"
	if (HARCH == "AArch64") {
		I(ld " " r ",[" A(loc) "]")
		I("CMP " r "," c)
		I("B.NE " l)
		k = nstat[t]++
		I(st " " rstat(k) "," tmp ",[" A(loc) "]")
		casok[t] = rstatc(k) "=0"
	} else if (HARCH == "RISCV") {
		I(ld " " r ",0(" A(loc) ")")
		I("bne " r "," c "," l)
		k = nstat[t]++
		I(st " " rstat(k) "," tmp ",0(" A(loc) ")")
		casok[t] = rstatc(k) "=0"
	} else if (HARCH == "ARM") {
		I("LDREX " r ",[" A(loc) "]")
		I("CMP " r "," c)
		I("BNE " l)
		k = nstat[t]++
		I("STREX " rstat(k) "," tmp ",[" A(loc) "]")
		casok[t] = rstatc(k) "=0"
	} else if (HARCH == "MIPS") {
		I("ll " r ",0(" A(loc) ")")
		k = nstat[t]++
		I("li " rstat(k) ",0")
		I("bne " r "," c "," l)
		I("addu " rstat(k) "," tmp ",$0")
		I("sc " rstat(k) ",0(" A(loc) ")")
		casok[t] = rstatc(k) "=1"
	} else {
		I("lwarx " r ",r0," A(loc))
		I("cmpw " r "," c)
		I("bne " l)
		k = nstat[t]++
		I("stwcx. " tmp ",r0," A(loc))
		I("li " rstat(k) ",1")
		I("beq " l)
		I("li " rstat(k) ",0")
		casok[t] = rstatc(k) "=1"
	}
	I(l ":")
}

function op_strel(loc, v, weak) {
	if (weak) { store(loc, v); return }
	if (HARCH == "X86_64") { store(loc, v); return }
	if (HARCH == "AArch64") {
		li(rtmp(), v)
		I("STLR " rtmp() ",[" A(loc) "]")
	} else if (HARCH == "RISCV") {
		fence("fence rw,w")
		store(loc, v)
	} else if (HARCH == "PPC") {
		fence("lwsync")
		store(loc, v)
	} else {
		fence(mibar())
		store(loc, v)
	}
}

function op_acq() {
	if (has("acq") || HARCH == "X86_64") return
	if (HARCH == "AArch64")
		fence(has("acq-weak") ? "DMB ISHST" : "DMB ISHLD")
	else if (HARCH == "RISCV")
		fence(has("acq-weak") ? "fence r,r" : "fence r,rw")
	else if (HARCH == "PPC")
		fence("lwsync")
	else if (HARCH == "ARM")
		fence(has("acq-weak") ? "DMB ST" : "DMB")
	else
		fence("sync")
}

function op_inc(loc,    r, tmp) {
	r = rcmp()
	tmp = rtmp()
	if (has("inc-split")) {
		load(r, loc)
		arith(tmp, r)
		store_reg(loc, tmp)
		return
	}
	if (HARCH == "X86_64") { I("LOCK INCQ [" loc "]"); return }
	if (ARCH == "arm64-lse") {
		# __sync_add_and_fetch with LSE: ldaddal.
		li(tmp, 1)
		I("LDADDAL " tmp "," r ",[" A(loc) "]")
		return
	}
	if (HARCH == "RISCV") {
		li(tmp, 1)
		I("amoadd.d.aqrl " r "," tmp ",(" A(loc) ")")
		return
	}
	# An LL/SC loop: load, add one, store-conditional.
	if (HARCH == "AArch64") {
		I("LDAXR " r ",[" A(loc) "]")
		I("ADD " tmp "," r ",#1")
		k = nstat[t]++
		I("STLXR " rstat(k) "," tmp ",[" A(loc) "]")
		okcond(rstatc(k) "=0")
	} else if (HARCH == "ARM") {
		I("LDREX " r ",[" A(loc) "]")
		I("ADD " tmp "," r ",#1")
		k = nstat[t]++
		I("STREX " rstat(k) "," tmp ",[" A(loc) "]")
		okcond(rstatc(k) "=0")
	} else if (HARCH == "MIPS") {
		I("ll " r ",0(" A(loc) ")")
		k = nstat[t]++
		I("addiu " rstat(k) "," r ",1")
		I("sc " rstat(k) ",0(" A(loc) ")")
		okcond(rstatc(k) "=1")
	} else {
		I("lwarx " r ",r0," A(loc))
		I("addi " tmp "," r ",1")
		k = nstat[t]++
		I("stwcx. " tmp ",r0," A(loc))
		I("bne Lfail" t)
		I("li " rstat(k) ",1")
		okcond(rstatc(k) "=1")
		fail[t] = "Lfail" t
	}
}
# tmp = r + 1, and a store of a register (the split increment).
function arith(d, s) {
	if (HARCH == "X86_64") { I("MOVQ " s "," d); I("INCQ " d) }
	else if (HARCH == "AArch64" || HARCH == "ARM")
		I("ADD " d "," s ",#1")
	else if (HARCH == "MIPS") I("addiu " d "," s ",1")
	else if (HARCH == "RISCV") I("addi " d "," s ",1")
	else I("addi " d "," s ",1")
}
function store_reg(loc, r) {
	if (HARCH == "X86_64") I("MOVQ " r ",[" loc "]")
	else if (HARCH == "AArch64" || HARCH == "ARM")
		I("STR " r ",[" A(loc) "]")
	else if (HARCH == "RISCV") I("sd " r ",0(" A(loc) ")")
	else if (HARCH == "MIPS") I("sw " r ",0(" A(loc) ")")
	else if (ARCH == "powerpc64") I("std " r ",0(" A(loc) ")")
	else I("stw " r ",0(" A(loc) ")")
}

function resreg(name) {
	if (name !~ /^r[0-9]$/) die(PAT ": bad result name " name)
	return (rres(substr(name, 2) + 0))
}

BEGIN {
	if (ARCH == "" || PAT == "") die("ARCH and PAT must be set")
	archinfo()
	found = 0
}

# pattern NAME: starts a block; the block ends at the next pattern.
$1 == "pattern" { inpat = ($2 == PAT); if (inpat) found = 1; next }
!inpat || /^[ \t]*(#|$)/ { next }
$1 == "archs" { next }
$1 == "doc" { $1 = ""; doc = doc (doc == "" ? "" : " ") substr($0, 2); next }
$1 == "code" { $1 = ""; code_of = code_of (code_of == "" ? "" : "; ") \
    substr($0, 2); next }
$1 == "init" { $1 = ""; meminit = substr($0, 2); next }
$1 == "exists" { $1 = ""; exists = substr($0, 2); next }
$1 ~ /^P[0-9]$/ {
	t = substr($1, 2) + 0
	if (t + 1 > nthr) nthr = t + 1
	if ($2 == "st") store($3, $4)
	else if ($2 == "ld") load(resreg($3), $4)
	else if ($2 == "swap") op_swap(resreg($3), $4, $5)
	else if ($2 == "cas") op_cas(resreg($3), $4, $5, $6)
	else if ($2 == "strel") op_strel($3, $4, has("strel"))
	else if ($2 == "stptrrel") op_strel($3, $4, has("ptrrel"))
	else if ($2 == "acq") op_acq()
	else if ($2 == "inc") op_inc($3)
	else if ($2 == "acas") op_acas(resreg($3), $4, $5, $6)
	else if ($2 == "spin") op_spin(resreg($3), $4)
	else if ($2 == "mexit-ba" && !has("kl-exit-ba")) fence(stock_exit())
	else if ($2 == "menter-aa" && !has("kl-enter-aa"))
		fence(stock_enter())
	else if ($2 == "menter-spin" && !has("kl-enter-spin"))
		fence(stock_enter())
	else if ($2 == "mexit" && !has("kl-exit")) fence(stock_exit())
	else if ($2 ~ /^m(exit|enter)/) ;
	else die(PAT ": unknown operation " $2)
	next
}
{ die(PAT ": cannot parse: " $0) }

END {
	if (err) exit 1
	if (!found) die("no pattern " PAT)
	for (t = 0; t < nthr; t++)
		if (t in fail) I(fail[t] ":")
	printf "%s %s\n", HARCH, ARCH "." PAT (MUT == "" ? "" : "." MUT)
	printf "\"%s\"\n", doc
	printf "Code=%s\n", code_of
	printf "Sequences=%s\n", PAT ~ /^kl-/ ? klsrc() : archsrc()
	printf "{\n%s\n%s\n}\n", meminit, substr(init, 2)
	w = 0
	for (t = 0; t < nthr; t++) {
		h[t] = "P" t
		if (length(h[t]) > w) w = length(h[t])
		for (i = 1; i <= ncode[t]; i++)
			if (length(code[t, i]) > w) w = length(code[t, i])
		if (ncode[t] > n) n = ncode[t]
	}
	line = ""
	for (t = 0; t < nthr; t++)
		line = line sprintf(" %-*s %s", w, h[t], t < nthr - 1 ? "|" : ";")
	print line
	for (i = 1; i <= n; i++) {
		line = ""
		for (t = 0; t < nthr; t++)
			line = line sprintf(" %-*s %s", w, \
			    (t, i) in code ? code[t, i] : "", \
			    t < nthr - 1 ? "|" : ";")
		print line
	}
	# Registers in the condition: rN of thread T -> T:REG; cas-ok
	# names the compare-and-swap's success.
	c = exists
	out = ""
	while (match(c, /[0-9]:(r[0-9]|casok)/)) {
		tok = substr(c, RSTART, RLENGTH)
		tt = substr(tok, 1, 1) + 0
		nm = substr(tok, 3)
		t = tt
		rep = nm == "casok" ? tt ":" casok[tt] : tt ":" resreg(nm)
		out = out substr(c, 1, RSTART - 1) rep
		c = substr(c, RSTART + RLENGTH)
	}
	c = out c
	for (t = 0; t < nthr; t++)
		c = c cond[t]
	printf "exists (%s)\n", c
}
