# The tables, the CSV and the plot data of tools/bench.sh, from its raw
# file: one line of key=value pairs per run, as bench.c prints them,
# with rep=N in front.
#
# Set with -v: rows (the locks, in table order), threads (the thread
# counts), workloads ("cs/ncs ..."), ncpu (online CPUs: more threads
# are marked oversubscribed), bases (the locks ratios refer to, e.g.
# "stock ticket"), csv (the CSV file to write; empty: none), plotdir
# (where the plot data go; empty: none).
#
# Every cell of the tables of figures is the median over the
# repetitions; spread is (max - min) / median of those repetitions.
#
# Ratios and their confidence intervals.  bench.sh interleaves the runs:
# in repetition r every lock runs each measure once, one after another,
# so run r of lock A and run r of the base B saw the same state of the
# machine and form a pair with the ratio q_r = A_r / B_r.  Over the n
# pairs:
#
#  - The ratio is the median of the q_r, and its 95% confidence
#    interval [q_(k), q_(n+1-k)] comes from the order statistics (the
#    sign test): k is the largest with P(Bin(n, 1/2) <= k - 1) <= 0.025,
#    so the interval holds the true median ratio with probability at
#    least 95% whatever the distribution of the q_r.  It needs n >= 6;
#    with fewer there is no interval ("[-, -]").  The verdict, for ns
#    per acquisition (lower is better), is "faster" when the whole
#    interval is below 1, "slower" when it is above 1, and "no
#    difference proven" otherwise.
#  - For reference, the geometric mean of the q_r with Student's t
#    interval: exp() of the mean m of d_r = ln q_r and of
#    m -/+ t(0.975, n - 1) * s / sqrt(n) (s: their standard deviation,
#    n - 1 in the denominator); none with fewer than two pairs.
#
# Why the median decides: on a virtual machine the figures of the
# contended runs are bimodal (where the host runs the vCPUs at that
# moment: at two threads about 75 or about 300 ns per acquisition), and
# the mode can change between the two runs of a pair.  Such a pair's
# ratio is off by a factor of four, and one of them widens Student's
# interval, which assumes normal log-ratios, past any real difference;
# it moves the median by one place.

# Student's t, isort, mid and signk: tools/buildtime's statistics,
# which bench.sh passes first (stats_awk).

function sorted(k, a, kind,    i, m) {
	# Copy the values of key k into a[1..m], sorted; return m.
	m = N[kind, k]
	for (i = 1; i <= m; i++)
		a[i] = V[kind, k, i]
	isort(a, m)
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
	return mid(a, m)
}

function add(kind, k, val, rep) {
	if (val == "" || val == "-")
		return
	if (val == "inf")
		val = INF
	val += 0
	V[kind, k, ++N[kind, k]] = val
	if (rep != "" && val > 0 && val < INF) {
		P[kind, k, rep + 0] = val
		if (rep + 0 > MAXREP)
			MAXREP = rep + 0
	}
}

# The ratio of lock key k to base key kb in kind, from the paired
# repetitions: sets RN (pairs), RR (the median ratio), RLO and RHI (its
# 95% interval, "" with fewer than six pairs), RV (the verdict), GR (the
# geometric mean), GLO and GHI (its t interval, "" with fewer than two
# pairs); returns 0 when there is no pair at all.
function ratio(kind, k, kb,    r, n, q, d, sum, m, ss, sd, h, s) {
	n = sum = 0
	for (r = 1; r <= MAXREP; r++)
		if ((kind, k, r) in P && (kind, kb, r) in P) {
			q[++n] = P[kind, k, r] / P[kind, kb, r]
			d[n] = log(q[n])
			sum += d[n]
		}
	RN = n
	RLO = RHI = GLO = GHI = ""
	RV = "no difference proven"
	if (n == 0) {
		RR = GR = ""
		return 0
	}
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
	m = sum / n
	GR = exp(m)
	if (n < 2)
		return 1
	ss = 0
	for (r = 1; r <= n; r++)
		ss += (d[r] - m) ^ 2
	sd = sqrt(ss / (n - 1))
	h = student(n - 1, 95) * sd / sqrt(n)
	GLO = exp(m - h)
	GHI = exp(m + h)
	return 1
}

function rfmt(x) {
	if (x == "")
		return "-"
	return x < 10 ? sprintf("%.3f", x) : x < 1000 ? sprintf("%.1f", x) : \
	    ">999"
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

# One cell: median and spread (ratios are in the verdict tables only,
# with their intervals).
function cell(kind, lock, mode, t, cs, ncs,    m, lo, hi, s) {
	m = median(kind, K(lock, mode, t, cs, ncs))
	if (m == "")
		return sprintf("%" CW "s", "-")
	lo = LO; hi = HI
	s = m > 0 ? (hi - lo) * 100 / m : "-"
	s = s == "-" ? s : s > 999 ? ">999" : sprintf("%.0f%%", s)
	return sprintf("%9s %4s", num(m, m < 1e5 ? "%.1f" : "%.0f"), s)
}

# One line of a verdict table: lock against base in one measure.
function vline(what, lock, base, k, kb) {
	if (!ratio("ns", k, kb))
		return
	printf "%-16s %-13s %7s  %-16s  %7s  %-16s  %s\n", what, lock,
	    rfmt(RR), "[" rfmt(RLO) ", " rfmt(RHI) "]", rfmt(GR),
	    "[" rfmt(GLO) ", " rfmt(GHI) "]", RV
}

function label(lock) {
	return lock == "pingpong" ? "pingpong (floor)" : lock
}

function thead(    i) {
	printf "%-17s", "lock"
	for (i = 1; i <= nt; i++)
		printf " %9s %4s", sprintf("%d thr%s", T[i],
		    T[i] > ncpu ? "*" : " "), "spr"
	printf "\n"
}

BEGIN {
	INF = 1e300
	CW = 14
	MAXREP = 0
	nb = split(bases, BS, " ")
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
	add("ns", k, f["ns"], f["rep"])
	add("mops", k, f["mops"])
	add("ho", k, f["handoff_ns"], f["rep"])
	add("fair", k, f["fair"])
}

END {
	print ""
	print "Uncontended: ns per lock+unlock"
	printf "%-17s %9s %4s\n", "lock", "ns", "spr"
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

	for (b = 1; b <= nb; b++) {
		print ""
		what = ""
		if (BS[b] == "stock")
			what = " (OpenBSD's ticket lock as shipped)"
		else if (BS[b] == "ticket")
			what = " (our ticket backend)"
		printf "Verdicts against %s%s: ns per acquisition, the ratio" \
		    " with its 95%% confidence interval\n", BS[b], what
		printf "(below 1 is faster; ratio: median of the paired" \
		    " per-repetition ratios, 95%% CI from the sign test, the" \
		    " verdict's;\n gmean: their geometric mean, with" \
		    " Student's t interval on their logs)\n"
		printf "%-16s %-13s %7s  %-16s  %7s  %-16s  %s\n", "measure",
		    "lock", "ratio", "95% CI", "gmean", "t 95% CI", "verdict"
		for (i = 1; i <= nr; i++)
			if (R[i] != "pingpong" && R[i] != BS[b])
				vline("uncontended", R[i], BS[b],
				    K(R[i], "uncontended", 1, 0, 0),
				    K(BS[b], "uncontended", 1, 0, 0))
		for (w = 1; w <= nw; w++) {
			split(W[w], cn, "/")
			for (j = 1; j <= nt; j++) {
				what = sprintf("%d thr%s cs%d/%d", T[j],
				    T[j] > ncpu ? "*" : "", cn[1], cn[2])
				for (i = 1; i <= nr; i++)
					if (R[i] != "pingpong" &&
					    R[i] != BS[b])
						vline(what, R[i], BS[b],
						    K(R[i], "contended", T[j],
						    cn[1], cn[2]),
						    K(BS[b], "contended", T[j],
						    cn[1], cn[2]))
			}
		}
	}

	if (csv != "")
		writecsv()
	if (plotdir == "")
		exit 0
	plots()
}

function writecsv(    hdr, b, i, w, j, cn) {
	hdr = "lock,src,mode,threads,cs_ns,ncs_ns,runs,ns_median,ns_min," \
	    "ns_max,mops_median,handoff_ns_median,fairness_median"
	for (b = 1; b <= nb; b++)
		hdr = hdr ",ratio_to_" BS[b] ",ci95_lo_" BS[b] ",ci95_hi_" \
		    BS[b] ",verdict_" BS[b] ",gmean_to_" BS[b] ",t95_lo_" \
		    BS[b] ",t95_hi_" BS[b] ",handoff_ratio_to_" BS[b] \
		    ",handoff_ci95_lo_" BS[b] ",handoff_ci95_hi_" BS[b]
	print hdr > csv
	for (i = 1; i <= nr; i++) {
		csvrow(K(R[i], "uncontended", 1, 0, 0))
		for (w = 1; w <= nw; w++) {
			split(W[w], cn, "/")
			for (j = 1; j <= nt; j++)
				csvrow(K(R[i], "contended", T[j], cn[1], cn[2]))
		}
	}
	close(csv)
}

function plots(    w, cn, file, i, j, k, m, h) {
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

function csvrow(k,    p, m, lo, hi, h, b, kb, row) {
	if (N["ns", k] == 0 || DONE[k]++)
		return
	split(k, p, SUBSEP)
	m = median("ns", k)
	lo = LO; hi = HI
	h = median("ho", k)
	row = sprintf("%s,%s,%s,%d,%d,%d,%d,%.2f,%.2f,%.2f,%.3f,%s,%s",
	    p[1], SRC[p[1]], p[2], p[3], p[4], p[5], N["ns", k], m, lo, hi,
	    median("mops", k), h == "" ? "" : sprintf("%.1f", h),
	    num(median("fair", k), "%.3f"))
	for (b = 1; b <= nb; b++) {
		# The base in the same measure; the ping-pong is set against
		# the base's contended figure at two threads.
		kb = mkey(BS[b], p[2] == "pingpong" ? "contended" : p[2],
		    p[3], p[4], p[5])
		if (ratio("ns", k, kb))
			row = row sprintf(",%.3f,%s,%s,%s,%.3f,%s,%s", RR,
			    RLO == "" ? "" : sprintf("%.3f", RLO),
			    RHI == "" ? "" : sprintf("%.3f", RHI), RV, GR,
			    GLO == "" ? "" : sprintf("%.3f", GLO),
			    GHI == "" ? "" : sprintf("%.3f", GHI))
		else
			row = row ",,,,,,,"
		if (ratio("ho", k, kb))
			row = row sprintf(",%.3f,%s,%s", RR,
			    RLO == "" ? "" : sprintf("%.3f", RLO),
			    RHI == "" ? "" : sprintf("%.3f", RHI))
		else
			row = row ",,,"
	}
	print row > csv
}
