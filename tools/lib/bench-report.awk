# The tables of tools/bench.sh from its raw file (a line of key=value
# pairs per run, bench.c's, with rep=N in front).  -v: rows (the locks,
# in table order), threads, ncpu (more threads are oversubscribed) and
# bases (the locks ratios refer to).  The statistics are
# tools/buildtime's (stats_awk), passed first; why the median decides:
# doc/bench.md.

# Median of the values for key k, LO and HI their extremes;
# "" if none.
function median(k,    a, i, m) {
	LO = HI = ""
	if ((m = N[k]) == 0)
		return ""
	for (i = 1; i <= m; i++)
		a[i] = V[k, i]
	isort(a, m)
	LO = a[1]
	HI = a[m]
	return mid(a, m)
}

# Every run has its rep= and ns=.
function add(k, val, rep) {
	val += 0
	V[k, ++N[k]] = val
	if (val > 0) {
		P[k, rep + 0] = val
		if (rep + 0 > MAXREP)
			MAXREP = rep + 0
	}
}

# The ratio of key k to base key kb, from the paired
# repetitions: sets RR (the median ratio), RLO and RHI (its
# interval), RV (the verdict); 0 when there is no pair.
function ratio(k, kb,    r, n, q, s) {
	n = 0
	for (r = 1; r <= MAXREP; r++)
		if ((k, r) in P && (kb, r) in P)
			q[++n] = P[k, r] / P[kb, r]
	RLO = RHI = ""
	RV = "no difference proven"
	if (n == 0)
		return 0
	isort(q, n)
	RR = mid(q, n)
	if ((s = signk(n)) > 0) {
		RLO = q[s]
		RHI = q[n + 1 - s]
		if (RHI < 1)
			RV = "faster"
		else if (RLO > 1)
			RV = "slower"
	}
	return 1
}

function rfmt(x) {
	if (x == "")
		return "-"
	return x < 10 ? sprintf("%.3f", x) : x < 1000 ? sprintf("%.1f", x) : \
	    ">999"
}

# The key of lock in measure m (1 uncontended, 1 + j contended at T[j]
# threads); the ping-pong has a measure of its own, two threads, no lock.
function K(lock, m) {
	return lock SUBSEP (lock == "pingpong" ? "pingpong" : m == 1 ? \
	    "uncontended" : "contended") SUBSEP (m == 1 ? 1 : T[m - 1])
}

# One cell: median and spread.
function cell(lock, m,    med, s) {
	med = median(K(lock, m))
	if (med == "")
		return sprintf(" %14s", "-")
	s = med > 0 ? (HI - LO) * 100 / med : "-"
	s = s == "-" ? s : s > 999 ? ">999" : sprintf("%.0f%%", s)
	return sprintf(" %9s %4s", sprintf(med < 1e5 ? "%.1f" : "%.0f", med), s)
}

# One line of a verdict table: lock against base in measure m.
function vline(m, lock, base) {
	if (ratio(K(lock, m), K(base, m)))
		printf VF, MN[m], lock, rfmt(RR), "[" rfmt(RLO) ", " rfmt(RHI) \
		    "]", RV
}

BEGIN {
	VF = "%-16s %-13s %7s  %-16s  %s\n"
	nb = split(bases, BS, " ")
	nr = split(rows, R, " ")
	nt = split(threads, T, " ")
	MN[1] = "uncontended"
	for (j = 1; j <= nt; j++)
		MN[1 + j] = T[j] " thr" (T[j] > ncpu ? "*" : "")
}

{
	delete f
	for (i = 1; i <= NF; i++) {
		p = index($i, "=")
		f[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
	add(f["backend"] SUBSEP f["mode"] SUBSEP f["threads"], f["ns"],
	    f["rep"])
}

END {
	print ""
	print "Uncontended: ns per lock+unlock"
	printf "%-17s %9s %4s\n", "lock", "ns", "spr"
	for (i = 1; i <= nr; i++)
		if (R[i] != "pingpong")
			printf "%-17s%s\n", R[i], cell(R[i], 1)
	print ""
	print "Contended: ns per acquisition (1 / throughput)"
	printf "%-17s", "lock"
	for (j = 1; j <= nt; j++)
		printf " %9s %4s", T[j] " thr" (T[j] > ncpu ? "*" : " "), "spr"
	printf "\n"
	for (i = 1; i <= nr; i++) {
		printf "%-17s", (R[i] == "pingpong" ? "pingpong (floor)" : R[i])
		for (j = 1; j <= nt; j++)
			printf "%s", cell(R[i], 1 + j)
		printf "\n"
	}
	for (b = 1; b <= nb; b++) {
		what = BS[b] == "stock" ? \
		    " (OpenBSD's ticket lock as shipped)" : \
		    BS[b] == "ticket" ? " (our ticket backend)" : ""
		printf "\nVerdicts against %s%s: ns per acquisition, the" \
		    " ratio with its 95%% confidence interval\n", BS[b], what
		printf "(below 1 is faster; ratio: median of the paired" \
		    " per-repetition ratios,\n 95%% CI from the sign test)\n"
		printf VF, "measure", "lock", "ratio", "95% CI", "verdict"
		for (m = 1; m <= nt + 1; m++)
			for (i = 1; i <= nr; i++)
				if (R[i] != "pingpong" && R[i] != BS[b])
					vline(m, R[i], BS[b])
	}
}
