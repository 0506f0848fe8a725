# One litmus test: pattern PAT of the patterns file, for architecture
# ARCH, with mutant MUT ("" for none) applied.
#
#	awk -v ARCH=arm64 -v PAT=mcs-link [-v MUT=swap-rel] -f gen.awk patterns
#
# Each operation becomes what it compiles to on ARCH (the tables in
# BEGIN, from sys/arch/ARCH/include/mplock.h or, for the MI fallbacks
# and the stock primitives, OpenBSD's atomic.h; the test's Sequences
# line names the files).  Loops are unrolled once: a store-conditional
# that fails ends the execution (its status is part of the condition),
# a wait is one load whose value the condition fixes.  Dependencies are
# modelled only where the code relies on one (spin with DEP), so a test
# is never stronger than the code.
#
# Operations, as kern_mplock.h names them:
#	st LOC V	plain store		ld R LOC	plain load
#	swap R LOC V	mpl_swap_ptr		strel LOC V	mpl_store_release
#	cas R LOC O N	mpl_cas_ptr_release	stptrrel LOC V	mpl_store_ptr_release
#	acq		mpl_acquire		inc LOC		atomic_inc_int_nv
# and the stock ones of the tech@ series' M-lock (tools/series/mlock.awk):
#	aswap R LOC V	atomic_swap_ptr		mexit		membar_exit()
#	mexit-swap	membar_exit() before the swap
#	menter-spin	membar_enter_after_atomic() after the wait
#	spin R LOC [DEP]	the wait's load (and powerpc's branch on it),
#			through the pointer in result DEP: an address
#			dependency (membar_datadep_consumer(), empty but
#			on alpha, which herd does not model)
#
# Mutants (MUT): swap-rel, swap-acq (that half of the swap), swap-split
# (a plain load and store), swap-acq-nodep (powerpc: isync without the
# branch on the loaded value), cas-rel, strel, ptrrel (plain store), acq,
# acq-weak (mpl_acquire weakened to loads only), inc-split, kl-swap-split
# (aswap a plain load and store), kl-nodep (the wait's load not through
# the swap's pointer), kl-exit-swap, kl-enter-spin, kl-exit (that
# barrier of the tech@ M-lock).

function die(m) { print "gen.awk: " m >"/dev/stderr"; err = 1; exit 1 }
function has(m) { return (MUT == m) }

# arch NAMES HARCH SRC KLSRC: herd's name for the architectures NAMES,
# and where their sequences come from (@ stands for the architecture):
# the lock's primitives, and the stock ones of the tech@ M-lock.
function arch(names, harch, src, klsrc,    n, a, i) {
	n = split(names, a, " ")
	for (i = 1; i <= n; i++)
		if (a[i] == ARCH) {
			HARCH = harch
			SRC = (PAT ~ /^kl-/) ? klsrc : src
			gsub(/@/, ARCH, SRC)
		}
}

# Registers: result i, address of location j, scratch, compare operand,
# status of store-conditional k; reg(n) is the architecture's nth.
function reg(n) { return (RP n) }
function rres(i) { return (HARCH == "X86_64" ? X86RES[i + 1] : reg(RB[1] + i)) }
function raddr(j) { return (reg(RB[2] + j)) }
function rtmp() { return (HARCH == "X86_64" ? "RBX" : reg(RB[3])) }
function rcmp() { return (HARCH == "X86_64" ? "RDI" : reg(RB[4])) }
function rstat(k) { return ((HARCH == "AArch64" ? "W" : RP) (RB[5] + k)) }
function rstatc(k) { return (reg(RB[5] + k)) }

# Emit instruction s for thread t (w: the widest, n: the most in a
# thread); per-thread condition parts.
function I(s) {
	code[t, ++ncode[t]] = s
	if (length(s) > w) w = length(s)
	if (ncode[t] > n) n = ncode[t]
}
function fence(f) { if (f != "") I(f) }
function okcond(s) { cond[t] = cond[t] " /\\ " t ":" s }
function A(loc) {
	if (!((t, loc) in addr)) {
		addr[t, loc] = raddr(naddr[t]++)
		init = init " " t ":" addr[t, loc] "=" loc ";"
	}
	return (addr[t, loc])
}
function mem(loc) {
	if (HARCH == "X86_64") return ("[" loc "]")
	if (HARCH == "AArch64" || HARCH == "ARM") return ("[" A(loc) "]")
	return ("0(" A(loc) ")")
}
function label() { return ("L" t (nlab[t]++)) }

# Constant v into register r; plain stores and loads.
function li(r, v) {
	if (HARCH == "AArch64" || HARCH == "ARM") I("MOV " r ",#" v)
	else if (HARCH == "X86_64") I("MOVQ $" v "," r)
	else I("li " r "," v)
}
function store_reg(loc, r) {
	I(HARCH == "X86_64" ? "MOVQ " r "," mem(loc) : ST " " r "," mem(loc))
}
function store(loc, v) {
	if (HARCH == "X86_64") { I("MOVQ $" v "," mem(loc)); return }
	li(rtmp(), v)
	store_reg(loc, rtmp())
}
function load(r, loc) {
	I(HARCH == "X86_64" ? "MOVQ " mem(loc) "," r : LD " " r "," mem(loc))
}
# d = s + 1
function arith(d, s) {
	if (HARCH == "X86_64") { I("MOVQ " s "," d); I("INCQ " d) }
	else if (HARCH == "AArch64" || HARCH == "ARM") I("ADD " d "," s ",#1")
	else if (HARCH == "MIPS") I("addiu " d "," s ",1")
	else I("addi " d "," s ",1")
}
# powerpc: a branch on the value loaded into r (isync orders after it).
function branch_on(r,    l) {
	l = label(); I("cmpw " r "," r); I("bne " l); I(l ":")
}

# A load-linked/store-conditional read-modify-write of loc: kind swap
# (store register v), inc (store r + 1, through v) or cas (store v if
# r equals register c; a failed compare skips the store and leaves the
# status at "failed").  acq and rel pick the acquire load and release
# store (AArch64); the others have one pair.
function llsc(kind, r, loc, v, acq, rel, c,    k, l, m, ok) {
	k = nstat[t]++
	if (kind == "cas") {
		l = label()
		if (HARCH != "MIPS" && HARCH != "PPC")
			init = init " " t ":" rstatc(k) "=1;"
	}
	m = (HARCH == "PPC") ? "r0," A(loc) : mem(loc)
	if (HARCH == "AArch64") I((acq ? "LDAXR " : "LDXR ") r "," m)
	else if (HARCH == "ARM") I("LDREX " r "," m)
	else if (HARCH == "MIPS") I("ll " r "," m)
	else I("lwarx " r "," m)
	if (kind == "cas" && HARCH == "MIPS") {
		I("li " rstat(k) ",0")
		I("bne " r "," c "," l)
	} else if (kind == "cas") {
		I((HARCH == "PPC" ? "cmpw " : "CMP ") r "," c)
		I((HARCH == "AArch64" ? "B.NE " : HARCH == "ARM" ? "BNE " : \
		    "bne ") l)
	} else if (kind == "inc" && HARCH != "MIPS")
		arith(v, r)
	if (HARCH == "AArch64") I((rel ? "STLXR " : "STXR ") rstat(k) "," v "," m)
	else if (HARCH == "ARM") I("STREX " rstat(k) "," v "," m)
	else if (HARCH == "MIPS") {
		I(kind == "inc" ? "addiu " rstat(k) "," r ",1" : \
		    "addu " rstat(k) "," v ",$0")
		I("sc " rstat(k) "," m)
	} else {
		# A failed stwcx. branches to the end of the thread (the real
		# loop retries); the status is set only on the path that went on.
		I("stwcx. " v "," m)
		if (kind == "cas") {
			I("li " rstat(k) ",1")
			I("beq " l)
			I("li " rstat(k) ",0")
		} else {
			I("bne Lfail" t)
			I("li " rstat(k) ",1")
			fail[t] = "Lfail" t
		}
	}
	ok = rstatc(k) "=" (HARCH == "MIPS" || HARCH == "PPC")
	if (kind == "cas") {
		casok[t] = ok
		I(l ":")
	} else
		okcond(ok)
}

# mpl_swap_ptr, or (kl) the stock atomic_swap_ptr: where the
# architecture has none of its own, sys/atomic.h's
# __sync_lock_test_and_set, an acquire only.
function op_swap(r, loc, v, kl,    tmp, acq, rel) {
	tmp = rtmp()
	acq = kl || !has("swap-acq")
	rel = !kl && !has("swap-rel")
	if (has(kl ? "kl-swap-split" : "swap-split")) {
		load(r, loc)
		store(loc, v)
	} else if (HARCH == "X86_64") {
		# xchg with a memory operand: locked, a full barrier.
		I("MOVQ $" v "," r)
		I("XCHGQ " r "," mem(loc))
	} else if (ARCH == "arm64-lse") {
		li(tmp, v)
		I("SWP" (acq ? "A" : "") (rel ? "L" : "") " " tmp "," r "," \
		    mem(loc))
	} else if (ARCH == "arm64") {
		li(tmp, v)
		llsc("swap", r, loc, tmp, acq, rel)
	} else if (kl) {
		# A reservation or ll/sc loop without barriers.
		li(tmp, v)
		llsc("swap", r, loc, tmp)
	} else {
		# powerpc: lwsync, the loop, a branch on the value and isync;
		# MI: membar_exit, atomic_swap_ptr, membar_enter.
		li(tmp, v)
		if (!has("swap-rel")) fence(REL)
		llsc("swap", r, loc, tmp)
		if (!has("swap-acq")) {
			if (HARCH == "PPC" && !has("swap-acq-nodep"))
				branch_on(r)
			fence(ENTER)
		}
	}
}

# mpl_cas_ptr_release.
function op_cas(r, loc, o, n,    tmp) {
	tmp = rtmp()
	if (HARCH == "X86_64") {
		if (r != "RAX") die(PAT ": the compare-and-swap's result" \
		    " must be r0 on x86")
		I("MOVQ $" o ",RAX")
		I("MOVQ $" n "," tmp)
		I("LOCK CMPXCHGQ " mem(loc) "," tmp)
		casok[t] = "RAX=" o
	} else if (ARCH == "arm64-lse") {
		li(r, o)
		li(tmp, n)
		I((has("cas-rel") ? "CAS " : "CASL ") r "," tmp "," mem(loc))
		casok[t] = r "=" o
	} else {
		li(tmp, n)
		li(rcmp(), o)
		if (!has("cas-rel") && HARCH != "AArch64")
			fence(REL)
		llsc("cas", r, loc, tmp, 0, !has("cas-rel"), rcmp())
	}
}

# r = [loc + (d xor d)]: a load whose address depends on register d.
function load_dep(r, loc, d,    x) {
	x = rcmp()
	if (HARCH == "X86_64")
		load(r, loc)
	else if (HARCH == "AArch64" || HARCH == "ARM") {
		I("EOR " x "," d "," d)
		I(LD " " r ",[" A(loc) "," x "]")
	} else if (HARCH == "PPC") {
		I("xor " x "," d "," d)
		I((ARCH == "powerpc64" ? "ldx " : "lwzx ") r "," x "," A(loc))
	} else {
		I("xor " x "," d "," d)
		I("addu " x "," x "," A(loc))
		I(LD " " r ",0(" x ")")
	}
}

function op_strel(loc, v, weak) {
	if (weak || HARCH == "X86_64")
		store(loc, v)
	else if (HARCH == "AArch64") {
		li(rtmp(), v)
		I("STLR " rtmp() "," mem(loc))
	} else {
		fence(REL)
		store(loc, v)
	}
}

function op_inc(loc,    r, tmp) {
	r = rcmp()
	tmp = rtmp()
	if (has("inc-split")) {
		load(r, loc)
		arith(tmp, r)
		store_reg(loc, tmp)
	} else if (HARCH == "X86_64")
		I("LOCK INCQ " mem(loc))
	else if (ARCH == "arm64-lse") {
		# __sync_add_and_fetch with LSE: ldaddal.
		li(tmp, 1)
		I("LDADDAL " tmp "," r "," mem(loc))
	} else
		llsc("inc", r, loc, tmp, 1, 1)
}

function resreg(name) {
	if (name !~ /^r[0-9]$/) die(PAT ": bad result name " name)
	return (rres(substr(name, 2) + 0))
}

BEGIN {
	if (ARCH == "" || PAT == "") die("ARCH and PAT must be set")
	arch("amd64 i386", "X86_64", "sys/arch/@/include/mplock.h: xchg, " \
	    "plain loads and stores; atomic_inc_int_nv: OpenBSD sys/arch/@/" \
	    "include/atomic.h, lock xadd (as lock inc: its value is unused)",
	    "OpenBSD sys/arch/@/include/atomic.h: membar_*() compiler " \
	    "barriers, atomic_swap_ptr xchg")
	arch("arm64", "AArch64", "sys/arch/arm64/include/mplock.h without " \
	    "LSE: ldaxr/stlxr swap, ldxr/stlxr CAS, stlr, dmb ishld; " \
	    "atomic_inc_int_nv: clang's ldaxr/stlxr loop",
	    "OpenBSD arm64: membar_*() dmb sy; atomic_swap_ptr: " \
	    "sys/atomic.h's __sync_lock_test_and_set, clang's ldaxr/stxr loop")
	arch("arm64-lse", "AArch64", "sys/arch/arm64/include/mplock.h with " \
	    "LSE: swpal, casl, stlr, dmb ishld; atomic_inc_int_nv: ldaddal",
	    "OpenBSD arm64: membar_*() dmb sy; atomic_swap_ptr: " \
	    "sys/atomic.h's __sync_lock_test_and_set, swpa")
	arch("powerpc64 powerpc", "PPC", "sys/arch/@/include/mplock.h: " \
	    "lwsync, reservation loop, branch on the value, isync; lwsync " \
	    "before stores and as acquire; atomic_inc_int_nv: a reservation " \
	    "loop (herd has only the word-sized lwarx/stwcx.)",
	    "OpenBSD @: membar_exit() sync, membar_enter() isync after a " \
	    "branch on the value; atomic_swap_ptr: a reservation loop")
	arch("mips64", "MIPS", "MI fallbacks of sys/kern/kern_mplock.h: " \
	    "membar_*() sync (sys/sys/atomic.h); atomic_swap_ptr, " \
	    "atomic_cas_ptr, atomic_add_int_nv: ll/sc loops without barriers " \
	    "(OpenBSD sys/arch/mips64/include/atomic.h)",
	    "OpenBSD mips64: membar_*() sync; atomic_swap_ptr: an ll/sc loop")
	arch("arm", "ARM", "MI fallbacks of sys/kern/kern_mplock.h: " \
	    "membar_*() dmb sy; atomic_swap_ptr, atomic_cas_ptr, " \
	    "atomic_inc_int_nv: ldrex/strex loops without barriers (OpenBSD " \
	    "sys/arch/arm/include/atomic.h)",
	    "OpenBSD arm: membar_*() dmb sy; atomic_swap_ptr: an ldrex/strex " \
	    "loop")
	if (HARCH == "") die("unknown architecture " ARCH)
	# Per herd architecture: register prefix and numbers (result,
	# address, scratch, compare, status: see rres()), plain load and
	# store, mpl_acquire (and weakened: acq-weak), the release fence of
	# mpl_store_release, the stock membar_exit() and membar_enter()
	# (also those of the MI fallbacks, as OpenBSD defines them).
	split("RAX RCX RDX RSI", X86RES, " ")
	if (HARCH == "AArch64") {
		RP = "X"; split("0 10 20 21 25", RB); LD = "LDR"; ST = "STR"
		ACQ = "DMB ISHLD"; ACQW = "DMB ISHST"
		EXIT = ENTER = "DMB SY"
	} else if (HARCH == "ARM") {
		RP = "R"; split("0 3 8 11 9", RB); LD = "LDR"; ST = "STR"
		ACQ = REL = EXIT = ENTER = "DMB"; ACQW = "DMB ST"
	} else if (HARCH == "MIPS") {
		RP = "$"; split("1 10 20 21 25", RB); LD = "lw"; ST = "sw"
		ACQ = ACQW = REL = EXIT = ENTER = "sync"
	} else if (HARCH == "PPC") {
		RP = "r"; split("1 10 20 21 25", RB)
		LD = (ARCH == "powerpc64") ? "ld" : "lwz"
		ST = (ARCH == "powerpc64") ? "std" : "stw"
		ACQ = ACQW = REL = "lwsync"; EXIT = "sync"; ENTER = "isync"
	}
	found = 0
	w = 2	# "Pn", a column's head
}

# pattern NAME: starts a block; the block ends at the next pattern.
$1 == "pattern" { inpat = ($2 == PAT); if (inpat) found = 1; next }
!inpat || /^[ \t]*(#|$)/ || $1 == "archs" { next }
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
	else if ($2 == "swap") op_swap(resreg($3), $4, $5, 0)
	else if ($2 == "aswap") op_swap(resreg($3), $4, $5, 1)
	else if ($2 == "cas") op_cas(resreg($3), $4, $5, $6)
	else if ($2 == "strel") op_strel($3, $4, has("strel"))
	else if ($2 == "stptrrel") op_strel($3, $4, has("ptrrel"))
	else if ($2 == "acq") {
		if (!has("acq") && HARCH != "X86_64")
			fence(has("acq-weak") ? ACQW : ACQ)
	} else if ($2 == "inc") op_inc($3)
	else if ($2 == "spin") {
		if ($5 != "" && !has("kl-nodep"))
			load_dep(resreg($3), $4, resreg($5))
		else
			load(resreg($3), $4)
		if (HARCH == "PPC") branch_on(resreg($3))
	} else if ($2 ~ /^m(exit(-swap)?|enter-spin)$/) {
		if (!has("kl-" substr($2, 2)))
			fence($2 ~ /exit/ ? EXIT : ENTER)
	} else die(PAT ": unknown operation " $2)
	next
}
{ die(PAT ": cannot parse: " $0) }

END {
	if (err) exit 1
	if (!found) die("no pattern " PAT)
	if (exists == "") die(PAT ": no exists line")
	for (t = 0; t < nthr; t++)
		if (t in fail) I(fail[t] ":")
	printf "%s %s\n", HARCH, ARCH "." PAT (MUT == "" ? "" : "." MUT)
	printf "\"%s\"\nCode=%s\nSequences=%s\n", doc, code_of, SRC
	printf "{\n%s\n%s\n}\n", meminit, substr(init, 2)
	for (i = 0; i <= n; i++) {
		line = ""
		for (t = 0; t < nthr; t++)
			line = line sprintf(" %-*s %s", w, i == 0 ? "P" t : \
			    (t, i) in code ? code[t, i] : "", \
			    t < nthr - 1 ? "|" : ";")
		print line
	}
	# rN of thread T -> T:REG; T:casok -> the compare-and-swap stored.
	c = exists
	out = ""
	while (match(c, /[0-9]:(r[0-9]|casok)/)) {
		t = substr(c, RSTART, 1) + 0
		nm = substr(c, RSTART + 2, RLENGTH - 2)
		out = out substr(c, 1, RSTART - 1) t ":" \
		    (nm == "casok" ? casok[t] : resreg(nm))
		c = substr(c, RSTART + RLENGTH)
	}
	c = out c
	for (t = 0; t < nthr; t++)
		c = c cond[t]
	printf "exists (%s)\n", c
}
