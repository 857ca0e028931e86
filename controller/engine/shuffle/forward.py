"""Forward algorithms: the chance of each card dealt under a model of a weak shuffle of the previous order.

The guessers of ``kernels`` match each card to one copy of it in the previous
order; with 8 copies of every card they often pick the wrong one and lose the
structure a few riffles or a shelf shuffler leaves. Here the copy is latent: a
forward algorithm carries a beam of the likeliest states of the shuffle (GSR
riffles: where each packet began in the previous order and how many of its
cards are out; a shelf shuffler: the shelf being unloaded, its side and the
place of the last card) and gives the model's chance ``q`` of the card dealt,
summed over every way the model could deal it.

Against the random chance ``p0`` (cards of that type left / cards left),
``prod q / p0`` is the model's likelihood ratio. Each state's chances of the
next card sum to at most 1 whatever the beam kept, so under a random shuffle
the ratio is a test martingale (an approximate beam costs power, never the
false-alarm bound); ``mixture_log_e`` mixes models and defensive shares ``d``
(``prod((1 - d) q / p0 + d)``, so a model that loses track once is not zeroed).

Places whose card is not known (the previous shoe's cards behind the cut card,
unreadable ones) are wild: their card is drawn from the composition not
placed. A model whose evidence falls below ``floor`` is given up for the shoe
(its later ratios are 1: stopping at a time chosen from the past keeps a
martingale one); on a random shoe every model is given up within some tens of
cards, which bounds the cost. Both forwards return ``(q, live)``: ``live``
says which models were not given up.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit

Array = np.ndarray[Any, Any]

SKIP = -1.0


@njit(cache=True)
def null_chances(dealt: Array, counts: Array) -> Array:
    """p0: the chance of each dealt card under a random shuffle (``SKIP`` for a card that changes no count)."""
    r = counts.copy()
    left = r.sum()
    out = np.full(dealt.shape[0], SKIP)
    for t in range(dealt.shape[0]):
        y = dealt[t]
        if 0 <= y < r.shape[0] and r[y] > 0:
            out[t] = r[y] / left
            r[y] -= 1
            left -= 1
    return out


@njit(cache=True)
def _shelf_powers(m: int, n: int) -> Array:
    """pw[s, which, g]: ``(1 - 1/W)**g``, ``(1 - 2/W)**g``, ``(1 - 1/(W - 1))**g`` for shelf ``s`` (``W = 2 (m - s)``)."""
    pw = np.zeros((m, 3, n + 1))
    for s in range(m):
        w = 2.0 * (m - s)
        for which, base in ((0, 1.0 - 1.0 / w), (1, 1.0 - 2.0 / w), (2, 1.0 - 1.0 / (w - 1.0))):
            pw[s, which, 0] = 1.0
            for g in range(1, n + 1):
                pw[s, which, g] = pw[s, which, g - 1] * base
    return pw


@njit(cache=True)
def _shelf_events(m: int, s: int, phase: int, c: int, pw: Array, remaining: int, rb_c: int, i: int, rb_i: int,
                  out_p: Array, out_s: Array, out_ph: Array) -> int:
    """The ways place ``i`` can come next from state (shelf ``s``, ``phase`` 0 falling / 1 rising, last place ``c``):
    (chance, shelf, phase) into the out arrays; how many. ``rb_*``: places still in below; ``remaining``: all still in.

    Each card still in lies on a shelf not yet emptied, on top (the falling part) or under (the rising part),
    all such choices equally likely and independent across cards: the chance that ``i`` is next is that of
    ``i`` being where the next card is taken from and no card being on a place taken from before it.
    """
    n_out = 0
    w = 2.0 * (m - s)
    ra_i = remaining - rb_i - 1
    if phase == 0:
        if i < c:
            a = pw[s, 0, rb_c - rb_i - 1] / w
            out_p[n_out], out_s[n_out], out_ph[n_out] = a, s, 0
            n_out += 1
            b = pw[s, 1, rb_i] * a
            if b > 0:
                out_p[n_out], out_s[n_out], out_ph[n_out] = b, s, 1
                n_out += 1
        else:
            b = pw[s, 1, rb_c] * pw[s, 2, rb_i - rb_c] / (w - 1.0)
            if b > 0:
                out_p[n_out], out_s[n_out], out_ph[n_out] = b, s, 1
                n_out += 1
        empty = pw[s, 1, rb_c] * pw[s, 2, remaining - rb_c]
    else:
        if i > c:
            b = pw[s, 2, rb_i - rb_c] / (w - 1.0)
            out_p[n_out], out_s[n_out], out_ph[n_out] = b, s, 1
            n_out += 1
        empty = pw[s, 2, remaining - rb_c]
    # the shelf holds no more cards: the next shelves, fresh
    s2 = s + 1
    while empty > 1e-12 and s2 < m and s2 <= s + 2:
        w2 = 2.0 * (m - s2)
        a = empty * pw[s2, 0, ra_i] / w2
        out_p[n_out], out_s[n_out], out_ph[n_out] = a, s2, 0
        n_out += 1
        b = pw[s2, 1, rb_i] * a
        if b > 0:
            out_p[n_out], out_s[n_out], out_ph[n_out] = b, s2, 1
            n_out += 1
        empty *= pw[s2, 1, remaining]
        s2 += 1
    return n_out


@njit(cache=True)
def _geometric(ratio: float, lo: int, hi: int) -> float:
    """sum of ratio**r for r in [lo, hi)."""
    if hi <= lo:
        return 0.0
    if ratio <= 0.0:
        return 1.0 if lo == 0 else 0.0
    if ratio == 1.0:
        return float(hi - lo)
    return (ratio**lo - ratio**hi) / (1.0 - ratio)


@njit(cache=True)
def _nth_free(bits: Array, start: int, step: int, n: int, skip: int) -> int:
    """The place of the ``skip``-th (0: first) place still in from ``start`` going ``step``; -1 if none."""
    i = start
    while 0 <= i < n:
        if not _is_set(bits, i):
            if skip == 0:
                return i
            skip -= 1
        i += step
    return -1


@njit(cache=True)
def _tail_events(m: int, s: int, phase: int, c: int, pw: Array, remaining: int, rb_c: int, r_t: int, bits: Array,
                 tail: int, n: int, out_p: Array, out_s: Array, out_ph: Array, out_i: Array) -> int:
    """``_shelf_events`` summed over the places still in from ``tail`` on (ranks ``r_t`` .. ``remaining - 1``):
    per way, the total chance and the likeliest place. Closed forms: the chances are geometric in the rank."""
    n_out = 0
    if r_t >= remaining:
        return 0
    w = 2.0 * (m - s)
    q1, q2 = 1.0 - 1.0 / w, 1.0 - 2.0 / w
    if phase == 0:
        below = max(0, rb_c - r_t)  # tail places still in below c
        if below > 0:
            out_p[n_out], out_s[n_out], out_ph[n_out] = 1.0 - pw[s, 0, below], s, 0
            out_i[n_out] = _nth_free(bits, c - 1, -1, n, 0)
            n_out += 1
            b = pw[s, 0, rb_c - 1] / w * _geometric(q2 / q1, r_t, rb_c)
            if b > 0:
                out_p[n_out], out_s[n_out], out_ph[n_out] = b, s, 1
                out_i[n_out] = _nth_free(bits, tail, 1, n, 0)
                n_out += 1
        first = max(r_t, rb_c) - rb_c
        if c < n and first < remaining - rb_c:
            b = pw[s, 1, rb_c] * (pw[s, 2, first] - pw[s, 2, remaining - rb_c])
            if b > 0:
                out_p[n_out], out_s[n_out], out_ph[n_out] = b, s, 1
                out_i[n_out] = _nth_free(bits, max(c + 1, tail), 1, n, 0)
                n_out += 1
        empty = pw[s, 1, rb_c] * pw[s, 2, remaining - rb_c]
    else:
        first = max(r_t, rb_c) - rb_c
        if first < remaining - rb_c:
            out_p[n_out], out_s[n_out], out_ph[n_out] = pw[s, 2, first] - pw[s, 2, remaining - rb_c], s, 1
            out_i[n_out] = _nth_free(bits, max(c + 1, tail), 1, n, 0)
            n_out += 1
        empty = pw[s, 2, remaining - rb_c]
    s2 = s + 1
    while empty > 1e-12 and s2 < m and s2 <= s + 2:
        w2 = 2.0 * (m - s2)
        q1b, q2b = 1.0 - 1.0 / w2, 1.0 - 2.0 / w2
        out_p[n_out], out_s[n_out], out_ph[n_out] = empty * (1.0 - pw[s2, 0, remaining - r_t]), s2, 0
        out_i[n_out] = _nth_free(bits, n - 1, -1, n, 0)
        n_out += 1
        b = empty * pw[s2, 0, remaining - 1] / w2 * _geometric(q2b / q1b, r_t, remaining)
        if b > 0:
            out_p[n_out], out_s[n_out], out_ph[n_out] = b, s2, 1
            out_i[n_out] = _nth_free(bits, tail, 1, n, 0)
            n_out += 1
        empty *= pw[s2, 1, remaining]
        s2 += 1
    return n_out


@njit(cache=True)
def _merge(slot_of: Array, key: int, cw: float, h: int, typ: int, bits: Array, n_kids: int, c_key: Array,
           cw_tot: Array, cw_best: Array, c_par: Array, c_typ: Array, acc: Array) -> int:
    """Add a way into state ``key`` (weight ``cw``, from state ``h``): equal states are one, keeping the places
    used on every way into it and the likeliest way's history. Returns the number of states."""
    slot = slot_of[key]
    if slot < 0:
        slot = n_kids
        n_kids += 1
        slot_of[key] = slot
        c_key[slot], cw_tot[slot], cw_best[slot], c_par[slot], c_typ[slot] = key, 0.0, 0.0, h, typ
        acc[slot] = bits
    else:
        acc[slot] &= bits
    cw_tot[slot] += cw
    if cw > cw_best[slot]:
        cw_best[slot], c_par[slot], c_typ[slot] = cw, h, typ
    return n_kids


@njit(cache=True)
def _top(weights: Array, n: int, cap: int) -> Array:
    """The indices of the ``cap`` largest of ``weights[:n]`` (all of them if fewer)."""
    if n <= cap:
        return np.arange(n)
    line = -np.partition(-weights[:n], cap - 1)[cap - 1]
    out = np.empty(cap, dtype=np.int64)
    got = 0
    for i in range(n):
        if weights[i] > line and got < cap:
            out[got] = i
            got += 1
    for i in range(n):
        if weights[i] == line and got < cap:
            out[got] = i
            got += 1
    return out


@njit(cache=True)
def _type_index(ref: Array, k: int) -> tuple[Array, Array, Array]:
    """CSR lists of the places of each type in ``ref`` (``start``, ``pos``) and the unknown places (``wild``)."""
    n = ref.shape[0]
    start = np.zeros(k + 1, dtype=np.int64)
    n_wild = 0
    for j in range(n):
        if ref[j] >= 0:
            start[ref[j] + 1] += 1
        else:
            n_wild += 1
    for y in range(k):
        start[y + 1] += start[y]
    pos = np.empty(start[k], dtype=np.int64)
    fill = start[:-1].copy()
    wild = np.empty(n_wild, dtype=np.int64)
    nw = 0
    for j in range(n):
        if ref[j] >= 0:
            pos[fill[ref[j]]] = j
            fill[ref[j]] += 1
        else:
            wild[nw] = j
            nw += 1
    return start, pos, wild


@njit(cache=True)
def _reference(ref: Array, counts: Array, size: int) -> tuple[Array, Array]:
    """The shuffler's input, ``size`` places (unknown ones ``-1``), and the composition of the unknown places."""
    k = counts.shape[0]
    refx = np.full(size, -1, dtype=np.int64)
    for j in range(min(ref.shape[0], size)):
        if 0 <= ref[j] < k:
            refx[j] = ref[j]
    wild = counts.copy()
    for j in range(size):
        if refx[j] >= 0:
            wild[refx[j]] -= 1
    for y in range(k):
        wild[y] = max(wild[y], 0)
    return refx, wild


@njit(cache=True)
def _popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def _is_set(bits: Array, i: int) -> bool:
    return bool((bits[i >> 6] >> np.uint64(i & 63)) & np.uint64(1))


@njit(cache=True)
def _below(bits: Array, cum: Array, i: int) -> int:
    """Set bits below ``i``; ``cum[w]``: set bits in the words before ``w``."""
    w = i >> 6
    r = i & 63
    if r == 0:
        return int(cum[w])
    return int(cum[w]) + _popcount(bits[w] & ((np.uint64(1) << np.uint64(r)) - np.uint64(1)))


@njit(cache=True)
def shelf_forward(dealt: Array, counts: Array, ref: Array, size: int, shelves: Array, beam: int,
                  deltas: Array, floor: float) -> tuple[Array, Array]:
    """q[model, t]: the chance of card ``t`` under a one-pass shelf shuffler with ``shelves[model]`` shelves fed ``ref``
    (``-1``: a place whose card is not known), by a beam of the ``beam`` likeliest states (shelf, side, place of
    the last card). Histories that reach the same state are merged: it keeps the places all of them used.

    ``SKIP`` where the card changes no count.
    """
    k = counts.shape[0]
    n_ref = size
    n_w = (n_ref + 63) // 64
    t_len = dealt.shape[0]
    refx, wild0 = _reference(ref, counts, size)
    start, pos, wild_pos = _type_index(refx, k)
    n_wild = wild_pos.shape[0]
    tail = n_ref  # the unknown places from here on (the cards behind the cut card) come last among the candidates
    while tail > 0 and refx[tail - 1] < 0:
        tail -= 1
    n_tail = n_ref - tail
    p0 = null_chances(dealt, counts)
    n_models = shelves.shape[0]
    q = np.full((n_models, t_len), SKIP)
    live = np.ones(n_models, dtype=np.bool_)
    cand = np.empty(n_ref, dtype=np.int64)
    ev_p = np.empty(8)
    ev_s = np.empty(8, dtype=np.int64)
    ev_ph = np.empty(8, dtype=np.int64)
    max_m = shelves.max()
    slot_of = np.full(max_m * 2 * n_ref, -1, dtype=np.int64)
    cap = max_m * 2 * n_ref  # states are distinct (shelf, side, place)
    cw_tot = np.empty(cap)
    cw_best = np.empty(cap)
    c_par = np.empty(cap, dtype=np.int64)
    c_key = np.empty(cap, dtype=np.int64)
    c_typ = np.empty(cap, dtype=np.int64)
    acc = np.empty((cap, n_w), dtype=np.uint64)
    cum = np.zeros(n_w + 1, dtype=np.int64)
    ev_i = np.empty(8, dtype=np.int64)
    for model in range(n_models):
        m = shelves[model]
        comp = np.zeros(deltas.shape[0])
        pw = _shelf_powers(m, n_ref)
        used = np.zeros((beam, n_w), dtype=np.uint64)
        wild = np.zeros((beam, k), dtype=np.int64)
        wsum = np.zeros(beam, dtype=np.int64)
        sh = np.zeros(beam, dtype=np.int64)
        ph = np.zeros(beam, dtype=np.int64)
        cc = np.zeros(beam, dtype=np.int64)
        wt = np.zeros(beam)
        used2 = used.copy()
        wild2 = wild.copy()
        wsum2 = wsum.copy()
        n_h = 1
        wild[0] = wild0
        wsum[0] = wild0.sum()
        cc[0] = n_ref
        wt[0] = 1.0
        emitted = 0
        for t in range(t_len):
            if emitted >= n_ref:
                break
            y = dealt[t]
            known = p0[t] != SKIP
            n_c = 0
            if known:
                for i in range(start[y], start[y + 1]):
                    cand[n_c] = pos[i]
                    n_c += 1
                for i in range(n_wild):
                    cand[n_c] = wild_pos[i]
                    n_c += 1
            else:  # an unreadable card: any place
                for i in range(n_ref):
                    cand[n_c] = i
                    n_c += 1
            total = 0.0
            n_kids = 0
            for h in range(n_h):
                bits = used[h]
                for w in range(n_w):
                    cum[w + 1] = cum[w] + _popcount(bits[w])
                remaining = n_ref - cum[n_w]
                rb_c = remaining if cc[h] >= n_ref else cc[h] - _below(bits, cum, cc[h])
                from_tail = known and n_tail > 0
                for a in range(n_c - n_tail if from_tail else n_c):
                    i = cand[a]
                    if _is_set(bits, i):
                        continue
                    f = 1.0
                    typ = -1
                    if refx[i] < 0 and known:
                        if wsum[h] <= 0 or wild[h, y] <= 0:
                            continue
                        f = wild[h, y] / wsum[h]
                        typ = y
                    rb_i = i - _below(bits, cum, i)
                    n_ev = _shelf_events(m, sh[h], ph[h], cc[h], pw, remaining, rb_c, i, rb_i, ev_p, ev_s, ev_ph)
                    for e in range(n_ev):
                        cw = wt[h] * ev_p[e] * f
                        if cw > 0:
                            total += cw
                            n_kids = _merge(slot_of, (ev_s[e] * 2 + ev_ph[e]) * n_ref + i, cw, h, typ, bits, n_kids,
                                            c_key, cw_tot, cw_best, c_par, c_typ, acc)
                if from_tail and wsum[h] > 0 and wild[h, y] > 0:
                    # the places behind the cut card, whose cards are not known: every one counts in the
                    # chance, and per way (shelf, side) the likeliest place goes on with the others' weight
                    f = wt[h] * wild[h, y] / wsum[h]
                    n_ev = _tail_events(m, sh[h], ph[h], cc[h], pw, remaining, rb_c, tail - _below(bits, cum, tail),
                                        bits, tail, n_ref, ev_p, ev_s, ev_ph, ev_i)
                    for e in range(n_ev):
                        cw = ev_p[e] * f
                        if cw > 0:
                            total += cw
                            n_kids = _merge(slot_of, (ev_s[e] * 2 + ev_ph[e]) * n_ref + ev_i[e], cw, h, y, bits,
                                            n_kids, c_key, cw_tot, cw_best, c_par, c_typ, acc)
            if known:
                q[model, t] = total
            if known and n_kids == 0:
                # no state explains the card: the states lost the shuffle's track; take it up again at each copy
                for h in range(n_h):
                    for a in range(start[y], start[y + 1]):
                        i = pos[a]
                        if not _is_set(used[h], i):
                            for phase in range(2):
                                n_kids = _merge(slot_of, (sh[h] * 2 + phase) * n_ref + i, wt[h], h, -1, used[h], n_kids,
                                                c_key, cw_tot, cw_best, c_par, c_typ, acc)
            for slot in range(n_kids):
                slot_of[c_key[slot]] = -1
            if known and _fell(comp, q[model, t], p0[t], deltas, floor):
                q[model, t + 1:] = p0[t + 1:]
                live[model] = False
                break
            if n_kids == 0:
                continue
            keep = _top(cw_tot, n_kids, beam)
            kept = 0.0
            for a in range(keep.shape[0]):
                kept += cw_tot[keep[a]]
            for a in range(keep.shape[0]):
                slot = keep[a]
                h = c_par[slot]
                key = c_key[slot]
                i = key % n_ref
                used2[a] = acc[slot]
                used2[a, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
                wild2[a] = wild[h]
                wsum2[a] = wsum[h]
                if c_typ[slot] >= 0:
                    wild2[a, c_typ[slot]] -= 1
                    wsum2[a] -= 1
                sh[a], ph[a], cc[a], wt[a] = key // n_ref // 2, (key // n_ref) % 2, i, cw_tot[slot] / kept
            used, used2 = used2, used
            wild, wild2 = wild2, wild
            wsum, wsum2 = wsum2, wsum
            n_h = keep.shape[0]
            emitted += 1
    return q, live


@njit(cache=True)
def _fell(comp: Array, q: float, p0: float, deltas: Array, floor: float) -> bool:
    """Add a card to the running ln likelihood ratios (one per defensive share); whether their mean fell below ``floor``.

    Stopping a test martingale at a time chosen from the past keeps it one: a model that has fallen this far
    is given up for the shoe, which saves its work on random shoes.
    """
    top = -np.inf
    for d in range(deltas.shape[0]):
        comp[d] += math.log((1.0 - deltas[d]) * max(q, 0.0) / p0 + deltas[d])
        top = max(top, comp[d])
    total = 0.0
    for d in range(deltas.shape[0]):
        total += math.exp(comp[d] - top)
    return top + math.log(total / deltas.shape[0]) < floor


@njit(cache=True)
def mixture_log_e(q: Array, p0: Array, deltas: Array) -> Array:
    """ln of the mean over models (rows of ``q``) and defensive shares ``deltas`` of prod((1 - d) q / p0 + d), after each card."""
    n_m, t_len = q.shape
    n_d = deltas.shape[0]
    comp = np.zeros((n_m, n_d))
    out = np.zeros(t_len)
    norm = math.log(n_m * n_d)
    for t in range(t_len):
        if p0[t] != SKIP:
            for a in range(n_m):
                ratio = max(q[a, t], 0.0) / p0[t]
                for d in range(n_d):
                    comp[a, d] += math.log((1.0 - deltas[d]) * ratio + deltas[d])
        top = comp.max()
        total = 0.0
        for a in range(n_m):
            for d in range(n_d):
                total += math.exp(comp[a, d] - top)
        out[t] = top + math.log(total) - norm
    return out


@njit(cache=True)
def _log_factorials(n: int) -> Array:
    out = np.zeros(n + 2)
    for i in range(1, n + 2):
        out[i] = out[i - 1] + math.log(i)
    return out


@njit(cache=True)
def riffle_forward(dealt: Array, counts: Array, ref: Array, size: int, packets: Array, beam: int,
                   deltas: Array, floor: float) -> tuple[Array, Array]:
    """q[model, t]: the chance of card ``t`` under a GSR ``packets[model]``-shuffle (``2**k`` for ``k`` riffles) of ``ref``.

    The state is where each packet started in ``ref`` and how many of its cards are out; a packet not yet
    seen starts at a binomial place in the span left to it (Bayer and Diaconis's sequential description:
    the next card comes from a packet with chance proportional to the cards left in it). A beam of the
    ``beam`` likeliest states, equal states merged.
    """
    k = counts.shape[0]
    n_ref = size
    t_len = dealt.shape[0]
    refx, wild0 = _reference(ref, counts, size)
    start, pos, wild_pos = _type_index(refx, k)
    n_wild = wild_pos.shape[0]
    p0 = null_chances(dealt, counts)
    lf = _log_factorials(n_ref)
    n_models = packets.shape[0]
    q = np.full((n_models, t_len), SKIP)
    live = np.ones(n_models, dtype=np.bool_)
    max_a = packets.max()
    cap = beam * (max_a * (n_ref + 1) + max_a)
    cw = np.zeros(cap)
    c_par = np.zeros(cap, dtype=np.int64)
    c_pk = np.zeros(cap, dtype=np.int64)
    c_pos = np.zeros(cap, dtype=np.int64)
    c_typ = np.zeros(cap, dtype=np.int64)
    c_hash = np.zeros(cap, dtype=np.int64)
    uniq = np.zeros(cap, dtype=np.int64)
    u_tot = np.zeros(cap)
    for model in range(n_models):
        a_n = packets[model]
        comp = np.zeros(deltas.shape[0])
        b = np.zeros((beam, a_n), dtype=np.int64)
        cnt = np.zeros((beam, a_n), dtype=np.int64)
        opened = np.zeros((beam, a_n), dtype=np.bool_)
        wild = np.zeros((beam, k), dtype=np.int64)
        wsum = np.zeros(beam, dtype=np.int64)
        hsh = np.zeros(beam, dtype=np.int64)
        wt = np.zeros(beam)
        b2, cnt2, opened2, wild2, wsum2, hsh2, wt2 = b.copy(), cnt.copy(), opened.copy(), wild.copy(), wsum.copy(), hsh.copy(), wt.copy()
        n_h = 1
        opened[0, 0] = True
        wild[0] = wild0
        wsum[0] = wild0.sum()
        wt[0] = 1.0
        emitted = 0
        for t in range(t_len):
            if emitted >= n_ref:
                break
            y = dealt[t]
            known = p0[t] != SKIP
            left = n_ref - emitted
            total = 0.0
            n_kids = 0
            for hh in range(n_h):
                j = 0
                while j < a_n:
                    j2 = j + 1
                    while j2 < a_n and not opened[hh, j2]:
                        j2 += 1
                    end = b[hh, j2] if j2 < a_n else n_ref
                    head = b[hh, j] + cnt[hh, j]
                    s_left = end - head
                    if s_left > 0:
                        span = j2 - j
                        base = wt[hh] * s_left / left / span
                        # the packet itself goes on
                        i = head
                        f = 1.0
                        typ = -1
                        if known:
                            if refx[i] >= 0:
                                f = 1.0 if refx[i] == y else 0.0
                            elif wsum[hh] > 0:
                                f = wild[hh, y] / wsum[hh]
                                typ = y
                            else:
                                f = 0.0
                        if f > 0:
                            w = base * f
                            total += w
                            cw[n_kids], c_par[n_kids], c_pk[n_kids], c_pos[n_kids], c_typ[n_kids] = w, hh, j, i, typ
                            n_kids += 1
                        # a packet not yet seen opens
                        for pk in range(j + 1, j2):
                            p = (pk - j) / span
                            n = s_left - 1
                            mean = n * p
                            sd = math.sqrt(n * p * (1 - p))
                            lo = max(head, head + int(mean - 7 * sd - 1))
                            hi = min(end, head + int(mean + 7 * sd + 2))
                            lp, lq = math.log(p), math.log(1 - p)
                            if known:
                                for r in range(start[y], start[y + 1]):
                                    i = pos[r]
                                    if lo <= i < hi:
                                        x = i - head
                                        w = base * math.exp(lf[n] - lf[x] - lf[n - x] + x * lp + (n - x) * lq)
                                        total += w
                                        cw[n_kids], c_par[n_kids], c_pk[n_kids], c_pos[n_kids], c_typ[n_kids] = w, hh, pk, i, -1
                                        n_kids += 1
                                if wsum[hh] > 0 and wild[hh, y] > 0:
                                    f = wild[hh, y] / wsum[hh]
                                    for r in range(np.searchsorted(wild_pos, lo), n_wild):
                                        i = wild_pos[r]
                                        if i >= hi:
                                            break
                                        x = i - head
                                        w = base * f * math.exp(lf[n] - lf[x] - lf[n - x] + x * lp + (n - x) * lq)
                                        total += w
                                        cw[n_kids], c_par[n_kids], c_pk[n_kids], c_pos[n_kids], c_typ[n_kids] = w, hh, pk, i, y
                                        n_kids += 1
                            else:
                                for i in range(lo, hi):
                                    x = i - head
                                    w = base * math.exp(lf[n] - lf[x] - lf[n - x] + x * lp + (n - x) * lq)
                                    cw[n_kids], c_par[n_kids], c_pk[n_kids], c_pos[n_kids], c_typ[n_kids] = w, hh, pk, i, -1
                                    n_kids += 1
                    j = j2
            if known:
                q[model, t] = total
                if _fell(comp, total, p0[t], deltas, floor):
                    q[model, t + 1:] = p0[t + 1:]
                    live[model] = False
                    break
            if n_kids == 0:
                continue
            # merge equal states: the hash of the parent's state with the one packet changed
            for c in range(n_kids):
                hh = c_par[c]
                pk = c_pk[c]
                if opened[hh, pk]:  # the packet's count moves on: out with its old (start, count), in with the new
                    c_hash[c] = hsh[hh] ^ _mix(_packet_key(pk, b[hh, pk], cnt[hh, pk])) \
                        ^ _mix(_packet_key(pk, b[hh, pk], cnt[hh, pk] + 1))
                else:  # a packet opens at its place, one card out
                    c_hash[c] = hsh[hh] ^ _mix(_packet_key(pk, c_pos[c], 1))
            size = 16
            while size < 2 * n_kids:
                size *= 2
            table = np.full(size, -1, dtype=np.int64)
            n_u = 0
            for c in range(n_kids):
                slot = c_hash[c] & (size - 1)
                while table[slot] >= 0 and c_hash[uniq[table[slot]]] != c_hash[c]:
                    slot = (slot + 1) & (size - 1)
                u = table[slot]
                if u < 0:
                    table[slot] = n_u
                    uniq[n_u], u_tot[n_u] = c, cw[c]
                    n_u += 1
                else:  # the same state reached another way: one state, the likelier history
                    u_tot[u] += cw[c]
                    if cw[c] > cw[uniq[u]]:
                        uniq[u] = c
            sel = _top(u_tot, n_u, beam)
            kept = 0.0
            for r in range(sel.shape[0]):
                kept += u_tot[sel[r]]
            for r in range(sel.shape[0]):
                c = uniq[sel[r]]
                hh = c_par[c]
                b2[r] = b[hh]
                cnt2[r] = cnt[hh]
                opened2[r] = opened[hh]
                wild2[r] = wild[hh]
                wsum2[r] = wsum[hh]
                pk = c_pk[c]
                if opened[hh, pk]:
                    cnt2[r, pk] += 1
                else:
                    opened2[r, pk] = True
                    b2[r, pk] = c_pos[c]
                    cnt2[r, pk] = 1
                if c_typ[c] >= 0:
                    wild2[r, c_typ[c]] -= 1
                    wsum2[r] -= 1
                hsh2[r] = c_hash[c]
                wt2[r] = u_tot[sel[r]] / kept
            b, b2 = b2, b
            cnt, cnt2 = cnt2, cnt
            opened, opened2 = opened2, opened
            wild, wild2 = wild2, wild
            wsum, wsum2 = wsum2, wsum
            hsh, hsh2 = hsh2, hsh
            wt, wt2 = wt2, wt
            n_h = sel.shape[0]
            emitted += 1
    return q, live


@njit(cache=True)
def _packet_key(packet: int, start: int, count: int) -> int:
    """One packet's state as one integer (a state's hash is the XOR of its packets' mixed keys)."""
    return (packet << 28) | (start << 14) | count


@njit(cache=True)
def _mix(x: int) -> int:
    """A 64-bit mix of an integer (splitmix64's finaliser), for hashing states."""
    z = np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return int(np.int64(z ^ (z >> np.uint64(31))))
