# The tables, the CSV and the plot data of tools/bench.sh, from its raw
# file: one line of key=value pairs per run, as bench.c prints them,
# with rep=N in front.
#
# Set with -v: rows (the locks, in table order), threads (the thread
# counts), workloads ("cs/ncs ..."), ncpu (online CPUs: more threads
# are marked oversubscribed), base (the lock ratios refer to), csv (the
# CSV file to write), plotdir (where the plot data go; empty: none).
#
# Every cell is the median over the repetitions; spread is
# (max - min) / median of those repetitions.

function sorted(k, a, kind,    i, j, m, t) {
	# Copy the values of key k into a[1..m], sorted; return m.
	m = N[kind, k]
	for (i = 1; i <= m; i++)
		a[i] = V[kind, k, i]
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return m
}

# Median of the values of kind for key k; sets LO and HI.  "" if none.
function median(kind, k,    a, m) {
	m = sorted(k, a, kind)
	if (m == 0) {
		LO = HI = ""
		return ""
	}
	LO = a[1]
	HI = a[m]
	return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
}

function add(kind, k, val) {
	if (val == "" || val == "-")
		return
	if (val == "inf")
		val = INF
	V[kind, k, ++N[kind, k]] = val + 0
}

function num(x, fmt) {
	if (x == "")
		return "-"
	if (x >= INF)
		return "inf"
	return sprintf(fmt, x)
}

function mkey(lock, mode, t, cs, ncs) {
	return lock SUBSEP mode SUBSEP t SUBSEP cs SUBSEP ncs
}

# The key of a row in a measure: the ping-pong has a measure of its own,
# two threads, no lock, no sections.
function K(lock, mode, t, cs, ncs) {
	if (lock == "pingpong")
		return mkey(lock, "pingpong", t, 0, 0)
	return mkey(lock, mode, t, cs, ncs)
}

# One cell: median, ratio to base, spread.
function cell(kind, lock, mode, t, cs, ncs,    m, b, lo, hi, r, s) {
	m = median(kind, K(lock, mode, t, cs, ncs))
	if (m == "")
		return sprintf("%" CW "s", "-")
	lo = LO; hi = HI
	b = median(kind, K(base, mode, t, cs, ncs))
	r = (b == "" || b == 0) ? "-" : m / b
	if (r != "-")
		r = sprintf(r < 10 ? "%.2f" : r < 100 ? "%.1f" : "%.0f", r)
	s = m > 0 ? (hi - lo) * 100 / m : "-"
	s = s == "-" ? s : s > 999 ? ">999" : sprintf("%.0f%%", s)
	return sprintf("%9s %5s %4s", num(m, m < 1e5 ? "%.1f" : "%.0f"),
	    r, s)
}

function label(lock) {
	return lock == "pingpong" ? "pingpong (floor)" : lock
}

function thead(    i) {
	printf "%-17s", "lock"
	for (i = 1; i <= nt; i++)
		printf " %9s %5s %4s", sprintf("%d thr%s", T[i],
		    T[i] > ncpu ? "*" : " "), "ratio", "spr"
	printf "\n"
}

BEGIN {
	INF = 1e300
	CW = 20
	nr = split(rows, R, " ")
	nt = split(threads, T, " ")
	nw = split(workloads, W, " ")
}

{
	delete f
	for (i = 1; i <= NF; i++) {
		p = index($i, "=")
		f[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
	k = mkey(f["backend"], f["mode"], f["threads"], f["cs"], f["ncs"])
	SRC[f["backend"]] = f["src"]
	add("ns", k, f["ns"])
	add("mops", k, f["mops"])
	add("ho", k, f["handoff_ns"])
	add("fair", k, f["fair"])
}

END {
	print ""
	print "Uncontended: ns per lock+unlock"
	printf "%-17s %9s %5s %4s\n", "lock", "ns", "ratio", "spr"
	for (i = 1; i <= nr; i++)
		if (R[i] != "pingpong")
			printf "%-17s %s\n", label(R[i]),
			    cell("ns", R[i], "uncontended", 1, 0, 0)

	for (w = 1; w <= nw; w++) {
		split(W[w], cn, "/")
		cs = cn[1]; ncs = cn[2]
		print ""
		printf "Contended, critical section %d ns, outside it %d ns:" \
		    " ns per acquisition (1 / throughput)\n", cs, ncs
		thead()
		for (i = 1; i <= nr; i++) {
			printf "%-17s", label(R[i])
			for (j = 1; j <= nt; j++)
				printf " %s", cell("ns", R[i], "contended",
				    T[j], cs, ncs)
			printf "\n"
		}
		print ""
		printf "Hand-off latency, cs %d ns, ncs %d ns: ns from a" \
		    " release to the next owner's acquisition\n", cs, ncs
		thead()
		for (i = 1; i <= nr; i++) {
			printf "%-17s", label(R[i])
			for (j = 1; j <= nt; j++)
				printf " %s", cell("ho", R[i], "contended",
				    T[j], cs, ncs)
			printf "\n"
		}
		print ""
		printf "Fairness, cs %d ns, ncs %d ns: most / fewest" \
		    " acquisitions of one thread (1.00 is even)\n", cs, ncs
		printf "%-17s", "lock"
		for (j = 1; j <= nt; j++)
			printf " %9s", sprintf("%d thr%s", T[j],
			    T[j] > ncpu ? "*" : "")
		printf "\n"
		for (i = 1; i <= nr; i++) {
			if (R[i] == "pingpong")
				continue
			printf "%-17s", label(R[i])
			for (j = 1; j <= nt; j++)
				printf " %9s", num(median("fair", mkey(R[i],
				    "contended", T[j], cs, ncs)), "%.2f")
			printf "\n"
		}
	}

	print "lock,src,mode,threads,cs_ns,ncs_ns,runs,ns_median,ns_min," \
	    "ns_max,ratio_to_" base ",mops_median,handoff_ns_median," \
	    "handoff_ratio_to_" base ",fairness_median" > csv
	for (i = 1; i <= nr; i++) {
		csvrow(K(R[i], "uncontended", 1, 0, 0))
		for (w = 1; w <= nw; w++) {
			split(W[w], cn, "/")
			for (j = 1; j <= nt; j++)
				csvrow(K(R[i], "contended", T[j], cn[1], cn[2]))
		}
	}
	close(csv)

	if (plotdir == "")
		exit 0
	# Per workload: one block per lock (threads, ns, hand-off ns), in
	# the order of rows, blocks separated by two blank lines.
	for (w = 1; w <= nw; w++) {
		split(W[w], cn, "/")
		file = plotdir "/cs" cn[1] "-ncs" cn[2] ".dat"
		printf "" > file
		for (i = 1; i <= nr; i++) {
			printf "# %s\n", R[i] > file
			for (j = 1; j <= nt; j++) {
				k = K(R[i], "contended", T[j], cn[1], cn[2])
				m = median("ns", k)
				if (m == "")
					continue
				h = median("ho", k)
				printf "%d %.2f %s\n", T[j], m,
				    h == "" ? "NaN" : sprintf("%.1f", h) > file
			}
			printf "\n\n" > file
		}
		close(file)
	}
}

function csvrow(k,    p, m, lo, hi, b, h, hb) {
	if (N["ns", k] == 0 || DONE[k]++)
		return
	split(k, p, SUBSEP)
	m = median("ns", k)
	lo = LO; hi = HI
	h = median("ho", k)
	# The base in the same measure; the ping-pong is set against the
	# base's contended figure at two threads.
	b = median("ns", mkey(base, p[2] == "pingpong" ? "contended" : p[2],
	    p[3], p[4], p[5]))
	hb = median("ho", mkey(base, p[2] == "pingpong" ? "contended" : p[2],
	    p[3], p[4], p[5]))
	printf "%s,%s,%s,%d,%d,%d,%d,%.2f,%.2f,%.2f,%s,%.3f,%s,%s,%s\n",
	    p[1], SRC[p[1]], p[2], p[3], p[4], p[5], N["ns", k], m, lo, hi,
	    b == "" ? "" : sprintf("%.3f", m / b), median("mops", k),
	    h == "" ? "" : sprintf("%.1f", h),
	    h == "" || hb == "" ? "" : sprintf("%.3f", h / hb),
	    num(median("fair", k), "%.3f") > csv
}
