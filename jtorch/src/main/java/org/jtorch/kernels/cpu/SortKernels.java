package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.storage.LowPrecision;
import org.jtorch.storage.TensorImpl;

/**
 * Order kernels: sort/argsort, topk, kthvalue and cummax/cummin along a dim, and the sorted or consecutive grouping
 * behind unique.
 *
 * <p><b>Keys.</b> Every element is first mapped to a {@code long} key whose signed order is PyTorch's order: floats by
 * their IEEE bits turned into a signed-comparable integer, with every NaN mapped to one key above +inf (NaN sorts last,
 * as ATen's comparators put it) and -0.0 mapped to +0.0 (ATen compares with {@code <}, so the two zeros tie and keep
 * their input order). Keys of every dtype but float64/int64/uint64 fit in an {@code int} ("narrow" keys). A descending
 * sort uses {@code ~key}, which reverses the order and keeps ties tied, so both directions are stable.
 *
 * <p><b>Sorting.</b> Narrow keys are packed with their lane position as {@code key << 32 | position}: the packed values
 * are distinct and their order is (key, position), so any sort of them is a stable sort of the lane. Long lanes use a
 * least-significant-digit radix sort (8-bit digits; a digit that is the same for every element is skipped); wide keys
 * carry their positions in a parallel array through the same radix passes, or a merge sort on short lanes. Lanes are
 * sorted in parallel.
 *
 * <p><b>Selection.</b> On long lanes topk with a small k streams the lane through a heap of the best k; topk with a
 * larger k and kthvalue find the k-th smallest key by radix selection (8-bit digits, narrowing the candidates each
 * pass) and sort only the winners. Ties go to the lowest positions, so the result is always the head of the stable
 * sort.
 */
public final class SortKernels {
    private SortKernels() {}

    /**
     * Lanes at least this long are radix-sorted, shorter ones use a comparison sort: measured crossovers (JDK 25, this
     * machine) for packed narrow keys and for wide keys with their positions.
     */
    static final int RADIX_MIN_NARROW = 64, RADIX_MIN_WIDE = 256;

    /** Lanes at least this long select top-k/k-th without sorting the whole lane. */
    static final int SELECT_MIN = 1 << 12;

    /** topk with k up to this uses a heap; beyond it, radix selection. */
    static final int HEAP_MAX = 1024;

    /** Elements read at a time by the heap selection. */
    private static final int CHUNK = 4096;

    /**
     * Radix digit width. 8-bit digits beat 11-bit ones even on 10^6 keys (one more pass, but 256 write streams stay in
     * cache where 2048 do not).
     */
    private static final int DIGIT_BITS = 8, BUCKETS = 1 << DIGIT_BITS;

    /** The key of every float NaN and of every double NaN. */
    static final long NAN_KEY_32 = floatKey(Float.NaN);

    static final long NAN_KEY_64 = doubleKey(Double.NaN);

    // ---- keys -------------------------------------------------------------------------------------------

    static long floatKey(float f) {
        int b = f != f ? 0x7fc00000 : Float.floatToRawIntBits(f + 0.0f); // + 0.0f turns -0.0 into +0.0
        return b ^ ((b >> 31) & 0x7fffffff);
    }

    static long doubleKey(double d) {
        long b = d != d ? 0x7ff8000000000000L : Double.doubleToRawLongBits(d + 0.0);
        return b ^ ((b >> 63) & Long.MAX_VALUE);
    }

    /** Whether the keys of {@code d} fit in an {@code int}. */
    static boolean narrow(DType d) {
        return d != DType.FLOAT64 && d != DType.INT64 && d != DType.UINT64;
    }

    /** The key NaN elements of {@code d} take, or null when {@code d} has no NaN. */
    static Long nanKey(DType d) {
        if (!d.isFloatingPoint()) return null;
        return narrow(d) ? NAN_KEY_32 : NAN_KEY_64;
    }

    /** Reads {@code n} elements (storage index {@code base + j * stride}) of {@code x} as keys. */
    static void readKeys(TensorImpl x, long base, long stride, int n, long[] keys) {
        Object arr = x.storage().array();
        switch (x.dtype()) {
            case FLOAT32 -> {
                if (arr instanceof float[] a) {
                    for (int j = 0; j < n; j++) keys[j] = floatKey(a[(int) (base + j * stride)]);
                    return;
                }
            }
            case FLOAT64 -> {
                if (arr instanceof double[] a) {
                    for (int j = 0; j < n; j++) keys[j] = doubleKey(a[(int) (base + j * stride)]);
                    return;
                }
            }
            case INT64 -> {
                if (arr instanceof long[] a) {
                    for (int j = 0; j < n; j++) keys[j] = a[(int) (base + j * stride)];
                    return;
                }
            }
            case INT32 -> {
                if (arr instanceof int[] a) {
                    for (int j = 0; j < n; j++) keys[j] = a[(int) (base + j * stride)];
                    return;
                }
            }
            default -> {}
        }
        DType d = x.dtype();
        ElementIO io = ElementIO.of(d);
        MemorySegment s = x.storage().segment();
        if (d.isFloatingPoint()) {
            for (int j = 0; j < n; j++) {
                double v = io.getDouble(s, base + j * stride);
                keys[j] = d == DType.FLOAT64 ? doubleKey(v) : floatKey((float) v); // narrower floats are exact in float
            }
        } else if (d == DType.UINT64) {
            for (int j = 0; j < n; j++) keys[j] = io.getLong(s, base + j * stride) ^ Long.MIN_VALUE;
        } else if (d == DType.UINT32) {
            for (int j = 0; j < n; j++) keys[j] = (int) io.getLong(s, base + j * stride) ^ Integer.MIN_VALUE;
        } else {
            for (int j = 0; j < n; j++) keys[j] = io.getLong(s, base + j * stride);
        }
    }

    // ---- lanes ------------------------------------------------------------------------------------------

    /** The 1-D lanes of a tensor along {@code dim}, enumerated in row-major order of the other dims. */
    static final class Lanes {
        final long[] shape, strides;
        final long offset;
        final int dim;
        final int length;
        final long count;

        Lanes(TensorImpl t, int dim) {
            boolean scalar = t.dim() == 0; // a 0-d tensor is one lane of length 1
            this.shape = scalar ? new long[] {1} : t.shapeRef();
            this.strides = scalar ? new long[] {1} : t.strideRef();
            this.offset = t.storageOffset();
            this.dim = dim;
            this.length = Math.toIntExact(shape[dim]);
            long c = 1;
            for (int d = 0; d < shape.length; d++) if (d != dim) c *= shape[d];
            this.count = c;
        }

        long stride() {
            return strides[dim];
        }

        /** Storage index of lane {@code lane}'s first element. */
        long base(long lane) {
            long idx = offset;
            for (int d = shape.length - 1; d >= 0; d--) {
                if (d == dim) continue;
                long s = shape[d];
                idx += (lane % s) * strides[d];
                lane /= s;
            }
            return idx;
        }
    }

    /** Scratch arrays of one task, sized for one lane and reused across its lanes. */
    static final class Work {
        /** Keys while sorting; lane positions, in result order, afterwards. */
        final long[] keys;

        private long[] tmp;
        private int[] pos, tmpPos, counts;

        Work(int n) {
            keys = new long[n];
        }

        long[] tmp() {
            if (tmp == null) tmp = new long[keys.length];
            return tmp;
        }

        int[] pos() {
            if (pos == null) pos = new int[keys.length];
            return pos;
        }

        int[] tmpPos() {
            if (tmpPos == null) tmpPos = new int[keys.length];
            return tmpPos;
        }

        /** Zeroed radix counters. */
        int[] counts(int size) {
            if (counts == null || counts.length < size) counts = new int[size];
            else Arrays.fill(counts, 0, size, 0);
            return counts;
        }
    }

    private static long grain(int laneLength) {
        return Math.max(1, Parallel.GRAIN / Math.max(1, laneLength));
    }

    // ---- sort -------------------------------------------------------------------------------------------

    /**
     * {@code sort}/{@code argsort} along {@code dim}: every lane of {@code x} sorted stably into the same lane of
     * {@code values} (skipped when null) and {@code indices}.
     */
    public static void sort(TensorImpl x, int dim, boolean descending, TensorImpl values, TensorImpl indices) {
        Lanes in = new Lanes(x, dim);
        Lanes vo = values == null ? null : new Lanes(values, dim);
        Lanes io = new Lanes(indices, dim);
        int n = in.length;
        if (n == 0 || in.count == 0) return;
        Parallel.forRange(in.count, grain(n), (s, e) -> {
            Work w = new Work(n);
            for (long l = s; l < e; l++) {
                long base = in.base(l);
                sortLane(x, base, in.stride(), n, descending, w);
                if (vo != null) gather(x, base, in.stride(), w.keys, n, values, vo.base(l), vo.stride());
                writePositions(w.keys, n, indices, io.base(l), io.stride());
            }
        });
    }

    /** Sorts one lane; on return {@code w.keys[0..n)} holds its positions in stable sorted order. */
    static void sortLane(TensorImpl x, long base, long stride, int n, boolean descending, Work w) {
        readKeys(x, base, stride, n, w.keys);
        sortKeys(n, descending, narrow(x.dtype()), w, null);
    }

    /**
     * Sorts the keys {@code w.keys[0..n)} of lane positions 0..n-1, replacing them by the positions in order, and (when
     * {@code sortedKeys} is not null) copying the ascending keys in sorted order there. Wide keys that all fit in an
     * int (int64 data of moderate size) take the packed path.
     */
    private static void sortKeys(int n, boolean descending, boolean narrow, Work w, long[] sortedKeys) {
        long[] k = w.keys;
        if (!narrow) narrow = fitsInt(k, n);
        if (narrow) {
            for (int j = 0; j < n; j++) k[j] = ((descending ? ~k[j] : k[j]) << 32) | j;
            if (n < RADIX_MIN_NARROW) Arrays.sort(k, 0, n);
            else radix(k, null, n, 32, w);
            if (sortedKeys != null) for (int j = 0; j < n; j++) sortedKeys[j] = descending ? ~(k[j] >> 32) : k[j] >> 32;
            for (int j = 0; j < n; j++) k[j] = (int) k[j];
        } else {
            if (descending) for (int j = 0; j < n; j++) k[j] = ~k[j];
            int[] pos = w.pos();
            for (int j = 0; j < n; j++) pos[j] = j;
            if (n < RADIX_MIN_WIDE) mergeSort(k, pos, n, w);
            else radix(k, pos, n, 0, w);
            if (sortedKeys != null) for (int j = 0; j < n; j++) sortedKeys[j] = descending ? ~k[j] : k[j];
            for (int j = 0; j < n; j++) k[j] = pos[j];
        }
    }

    private static boolean fitsInt(long[] k, int n) {
        long lo = 0, hi = 0;
        for (int j = 0; j < n; j++) {
            lo = Math.min(lo, k[j]);
            hi = Math.max(hi, k[j]);
        }
        return lo >= Integer.MIN_VALUE && hi <= Integer.MAX_VALUE;
    }

    /**
     * LSD radix sort of {@code a[0..n)} by bits {@code [loBit, 64)} read as a signed number, carrying {@code pos} (when
     * non-null). Each pass is stable, so equal digits keep the order of the previous pass, and for packed keys the
     * initial position order breaks ties.
     */
    private static void radix(long[] a, int[] pos, int n, int loBit, Work w) {
        final int bits = DIGIT_BITS, buckets = BUCKETS, mask = BUCKETS - 1;
        int digits = (64 - loBit) / bits;
        int[] counts = w.counts(digits * buckets);
        for (int i = 0; i < n; i++) {
            long u = (a[i] ^ Long.MIN_VALUE) >>> loBit; // signed order as unsigned digits
            for (int d = 0, off = 0; d < digits; d++, off += buckets, u >>>= bits) counts[off + ((int) u & mask)]++;
        }
        long[] src = a, dst = w.tmp();
        int[] srcPos = pos, dstPos = pos == null ? null : w.tmpPos();
        for (int d = 0; d < digits; d++) {
            int off = d * buckets, shift = loBit + d * bits;
            if (counts[off + ((int) ((src[0] ^ Long.MIN_VALUE) >>> shift) & mask)] == n)
                continue; // one bucket: nothing moves
            for (int b = 0, sum = 0; b < buckets; b++) {
                int t = counts[off + b];
                counts[off + b] = sum;
                sum += t;
            }
            if (srcPos == null) {
                for (int i = 0; i < n; i++) {
                    long v = src[i];
                    dst[counts[off + ((int) ((v ^ Long.MIN_VALUE) >>> shift) & mask)]++] = v;
                }
            } else {
                for (int i = 0; i < n; i++) {
                    long v = src[i];
                    int at = counts[off + ((int) ((v ^ Long.MIN_VALUE) >>> shift) & mask)]++;
                    dst[at] = v;
                    dstPos[at] = srcPos[i];
                }
                int[] tp = srcPos;
                srcPos = dstPos;
                dstPos = tp;
            }
            long[] t = src;
            src = dst;
            dst = t;
        }
        if (src != a) {
            System.arraycopy(src, 0, a, 0, n);
            if (pos != null) System.arraycopy(srcPos, 0, pos, 0, n);
        }
    }

    /** Stable bottom-up merge sort of (key, position) pairs, with insertion-sorted runs of 16. */
    private static void mergeSort(long[] keys, int[] pos, int n, Work w) {
        final int run = 16;
        for (int lo = 0; lo < n; lo += run) {
            int hi = Math.min(n, lo + run);
            for (int i = lo + 1; i < hi; i++) {
                long k = keys[i];
                int p = pos[i], j = i - 1;
                while (j >= lo && keys[j] > k) {
                    keys[j + 1] = keys[j];
                    pos[j + 1] = pos[j];
                    j--;
                }
                keys[j + 1] = k;
                pos[j + 1] = p;
            }
        }
        if (n <= run) return;
        long[] srcK = keys, dstK = w.tmp();
        int[] srcP = pos, dstP = w.tmpPos();
        for (int width = run; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(n, lo + width), hi = Math.min(n, lo + 2 * width);
                int i = lo, j = mid, o = lo;
                while (i < mid && j < hi) {
                    if (srcK[j] < srcK[i]) { // strict: equal keys take the left run first
                        dstK[o] = srcK[j];
                        dstP[o++] = srcP[j++];
                    } else {
                        dstK[o] = srcK[i];
                        dstP[o++] = srcP[i++];
                    }
                }
                while (i < mid) {
                    dstK[o] = srcK[i];
                    dstP[o++] = srcP[i++];
                }
                while (j < hi) {
                    dstK[o] = srcK[j];
                    dstP[o++] = srcP[j++];
                }
            }
            long[] tk = srcK;
            srcK = dstK;
            dstK = tk;
            int[] tp = srcP;
            srcP = dstP;
            dstP = tp;
        }
        if (srcK != keys) {
            System.arraycopy(srcK, 0, keys, 0, n);
            System.arraycopy(srcP, 0, pos, 0, n);
        }
    }

    // ---- selection ----------------------------------------------------------------------------------

    /** {@code topk}: the first {@code k} of each lane's stable sort (descending when {@code largest}). */
    public static void topk(TensorImpl x, int dim, int k, boolean largest, TensorImpl values, TensorImpl indices) {
        Lanes in = new Lanes(x, dim), vo = new Lanes(values, dim), io = new Lanes(indices, dim);
        int n = in.length;
        if (k == 0 || in.count == 0) return;
        boolean full = n < SELECT_MIN || k > n / 4; // measured: beyond a quarter of the lane, sorting it all is faster
        Parallel.forRange(in.count, grain(n), (s, e) -> {
            Work w = full ? new Work(n) : null;
            long[] best = new long[k];
            for (long l = s; l < e; l++) {
                long base = in.base(l);
                long[] order;
                if (full) {
                    sortLane(x, base, in.stride(), n, largest, w);
                    order = w.keys;
                } else {
                    if (k <= HEAP_MAX) heapSelect(x, base, in.stride(), n, k, largest, best);
                    else radixSelect(x, base, in.stride(), n, k, largest, best);
                    order = best;
                }
                gather(x, base, in.stride(), order, k, values, vo.base(l), vo.stride());
                writePositions(order, k, indices, io.base(l), io.stride());
            }
        });
    }

    /**
     * The positions of the k smallest keys (after {@code ~} when {@code largest}) in (key, position) order, into
     * {@code out[0..k)}: the lane streams in chunks through a max-heap of the best k, ordered by (key, position), so a
     * later equal key never displaces an earlier one.
     */
    private static void heapSelect(TensorImpl x, long base, long stride, int n, int k, boolean largest, long[] out) {
        long[] hk = new long[k];
        int[] hp = new int[k];
        long[] chunk = new long[Math.min(CHUNK, n)];
        int size = 0;
        for (int j0 = 0; j0 < n; j0 += chunk.length) {
            int c = Math.min(chunk.length, n - j0);
            readKeys(x, base + j0 * stride, stride, c, chunk);
            for (int i = 0; i < c; i++) {
                long key = largest ? ~chunk[i] : chunk[i];
                if (size < k) {
                    hk[size] = key;
                    hp[size] = j0 + i;
                    siftUp(hk, hp, size++);
                } else if (key < hk[0]) { // positions only grow, so an equal key is never better
                    hk[0] = key;
                    hp[0] = j0 + i;
                    siftDown(hk, hp, k, 0);
                }
            }
        }
        for (int i = size - 1; i >= 0; i--) { // heap sort: the largest goes last
            out[i] = hp[0];
            hk[0] = hk[i];
            hp[0] = hp[i];
            siftDown(hk, hp, i, 0);
        }
    }

    private static boolean after(long[] hk, int[] hp, int a, int b) {
        return hk[a] > hk[b] || (hk[a] == hk[b] && hp[a] > hp[b]);
    }

    private static void swap(long[] hk, int[] hp, int a, int b) {
        long t = hk[a];
        hk[a] = hk[b];
        hk[b] = t;
        int p = hp[a];
        hp[a] = hp[b];
        hp[b] = p;
    }

    private static void siftUp(long[] hk, int[] hp, int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!after(hk, hp, i, parent)) return;
            swap(hk, hp, i, parent);
            i = parent;
        }
    }

    private static void siftDown(long[] hk, int[] hp, int size, int i) {
        while (true) {
            int l = 2 * i + 1, r = l + 1, top = i;
            if (l < size && after(hk, hp, l, top)) top = l;
            if (r < size && after(hk, hp, r, top)) top = r;
            if (top == i) return;
            swap(hk, hp, i, top);
            i = top;
        }
    }

    /** As {@link #heapSelect}, for larger k: radix-select the k-th key, collect the k winners, sort them. */
    private static void radixSelect(TensorImpl x, long base, long stride, int n, int k, boolean largest, long[] out) {
        boolean narrow = narrow(x.dtype());
        long[] keys = new long[n];
        readKeys(x, base, stride, n, keys);
        if (largest) for (int j = 0; j < n; j++) keys[j] = ~keys[j];
        long t = kthSmallest(keys, n, k, narrow);
        int ties = k;
        for (int j = 0; j < n; j++) if (keys[j] < t) ties--;
        Work small = new Work(k);
        int[] pos = small.pos();
        for (int j = 0, c = 0; j < n && c < k; j++) {
            long v = keys[j];
            if (v < t || (v == t && ties-- > 0)) {
                small.keys[c] = v;
                pos[c++] = j;
            }
        }
        if (narrow) {
            for (int i = 0; i < k; i++) small.keys[i] = (small.keys[i] << 32) | pos[i];
            if (k < RADIX_MIN_NARROW) Arrays.sort(small.keys, 0, k);
            else radix(small.keys, null, k, 32, small);
            for (int i = 0; i < k; i++) out[i] = (int) small.keys[i];
        } else {
            if (k < RADIX_MIN_WIDE) mergeSort(small.keys, pos, k, small);
            else radix(small.keys, pos, k, 0, small);
            for (int i = 0; i < k; i++) out[i] = pos[i];
        }
    }

    /**
     * The k-th smallest (1-based) of {@code keys[0..n)} by radix selection, most significant digit first: 16-bit digits
     * while many candidates remain (one pass then usually leaves few), 8-bit ones after. {@code keys} is left
     * unchanged; the candidates are copied out.
     */
    static long kthSmallest(long[] keys, int n, int k, boolean narrow) {
        long flip = narrow ? 1L << 31 : Long.MIN_VALUE; // signed order as unsigned digits
        int top = narrow ? 32 : 64; // the bits above position top are fixed among the candidates
        long[] cur = keys;
        int m = n;
        while (top > 0 && m > 64) {
            int bits = Math.min(top, m >= 1 << 16 ? 16 : 8), shift = top - bits, mask = (1 << bits) - 1;
            int[] count = new int[1 << bits];
            for (int i = 0; i < m; i++) count[(int) ((cur[i] ^ flip) >>> shift) & mask]++;
            int b = 0;
            while (k > count[b]) k -= count[b++];
            if (count[b] != m) {
                long[] next = cur == keys ? new long[count[b]] : cur; // later passes compact in place
                int w = 0;
                for (int i = 0; i < m; i++) {
                    if (((int) ((cur[i] ^ flip) >>> shift) & mask) == b) next[w++] = cur[i];
                }
                cur = next;
                m = w;
            }
            top = shift;
        }
        if (top == 0) return cur[0]; // every digit fixed: the candidates are equal
        long[] rest = Arrays.copyOf(cur, m);
        Arrays.sort(rest);
        return rest[k - 1];
    }

    /**
     * {@code kthvalue}: the k-th smallest element of each lane (NaN largest) and its position in the stable sort.
     * Output element {@code l} (row-major) belongs to lane {@code l}.
     */
    public static void kthvalue(TensorImpl x, int dim, int k, TensorImpl values, TensorImpl indices) {
        Lanes in = new Lanes(x, dim);
        int n = in.length;
        if (in.count == 0) return;
        boolean narrow = narrow(x.dtype());
        Parallel.forRange(in.count, grain(n), (s, e) -> {
            Work w = new Work(n);
            long[] one = new long[1];
            for (long l = s; l < e; l++) {
                long base = in.base(l);
                if (n < SELECT_MIN) {
                    sortLane(x, base, in.stride(), n, false, w);
                    one[0] = w.keys[k - 1];
                } else {
                    long[] keys = w.keys;
                    readKeys(x, base, in.stride(), n, keys);
                    long t = kthSmallest(keys, n, k, narrow);
                    int rank = k;
                    for (int j = 0; j < n; j++) if (keys[j] < t) rank--;
                    for (int j = 0; j < n; j++) {
                        if (keys[j] == t && --rank == 0) {
                            one[0] = j;
                            break;
                        }
                    }
                }
                gather(x, base, in.stride(), one, 1, values, values.elementIndex(l), 0);
                writePositions(one, 1, indices, indices.elementIndex(l), 0);
            }
        });
    }

    // ---- scans --------------------------------------------------------------------------------------

    /**
     * {@code cummax}/{@code cummin}: the running extremum of each lane and the position it came from. A later equal
     * element takes over ({@code >=}/{@code <=}, as ATen), and so does every NaN, which then stays (ATen's
     * {@code isnan(x) || (!isnan(out) && op(x, out))}).
     */
    public static void cumExtremum(TensorImpl x, int dim, boolean max, TensorImpl values, TensorImpl indices) {
        Lanes in = new Lanes(x, dim), vo = new Lanes(values, dim), io = new Lanes(indices, dim);
        int n = in.length;
        if (n == 0 || in.count == 0) return;
        Long nan = nanKey(x.dtype());
        long nanKey = nan == null ? 0 : nan;
        boolean floating = nan != null;
        Parallel.forRange(in.count, grain(n), (s, e) -> {
            long[] k = new long[n], order = new long[n];
            for (long l = s; l < e; l++) {
                long base = in.base(l);
                readKeys(x, base, in.stride(), n, k);
                long best = k[0];
                int at = 0;
                for (int i = 0; i < n; i++) {
                    long c = k[i];
                    boolean take;
                    if (max) {
                        take = c >= best; // the NaN key is above every other, so NaN takes over and stays
                    } else {
                        boolean cNan = floating && c == nanKey, bestNan = floating && best == nanKey;
                        take = cNan || (!bestNan && c <= best);
                    }
                    if (take) {
                        best = c;
                        at = i;
                    }
                    order[i] = at;
                }
                gather(x, base, in.stride(), order, n, values, vo.base(l), vo.stride());
                writePositions(order, n, indices, io.base(l), io.stride());
            }
        });
    }

    // ---- unique -------------------------------------------------------------------------------------

    /**
     * The groups behind {@code unique}/{@code unique_consecutive} of a contiguous tensor's elements: {@code order}
     * lists element positions (sorted stably, or in input order for consecutive), and {@code starts[g]} is where group
     * g begins in {@code order} ({@code starts[groups] == n}).
     */
    public record Groups(long[] order, int[] starts, int groups) {}

    /**
     * Groups the elements of contiguous {@code x} (row-major): equal neighbours in sorted order (or in input order when
     * {@code consecutive}) form a group; NaN never equals anything, as ATen's {@code !=} comparison has it, and -0.0
     * equals 0.0.
     */
    public static Groups group(TensorImpl x, boolean consecutive) {
        int n = Math.toIntExact(x.numel());
        Work w = new Work(n);
        long[] sorted = new long[n], order = w.keys;
        if (consecutive) {
            readKeys(x, x.storageOffset(), 1, n, sorted);
            for (int j = 0; j < n; j++) order[j] = j;
        } else {
            readKeys(x, x.storageOffset(), 1, n, order);
            sortKeys(n, false, narrow(x.dtype()), w, sorted);
        }
        Long nan = nanKey(x.dtype());
        int[] starts = new int[n + 1];
        int g = 0;
        for (int i = 0; i < n; i++) {
            long v = sorted[i];
            if (i == 0 || v != sorted[i - 1] || (nan != null && v == nan)) starts[g++] = i;
        }
        starts[g] = n;
        return new Groups(order, starts, g);
    }

    /**
     * The row order behind {@code unique(dim=...)}: rows of the contiguous 2-D {@code x} ({@code [rows, cols]}) sorted
     * lexicographically (stably; skipped when {@code consecutive}) and grouped when equal element by element (NaN never
     * equal, as ATen's {@code at::equal}).
     */
    public static Groups groupRows(TensorImpl x, boolean consecutive) {
        int rows = Math.toIntExact(x.shapeRef()[0]), cols = Math.toIntExact(x.shapeRef()[1]);
        long[] keys = new long[rows * cols];
        readKeys(x, x.storageOffset(), 1, keys.length, keys);
        Integer[] order = new Integer[rows];
        for (int r = 0; r < rows; r++) order[r] = r;
        if (!consecutive) {
            Arrays.sort(
                    order, (a, b) -> Arrays.compare(keys, a * cols, a * cols + cols, keys, b * cols, b * cols + cols));
        }
        Long nan = nanKey(x.dtype());
        int[] starts = new int[rows + 1];
        long[] pos = new long[rows];
        int g = 0;
        for (int i = 0; i < rows; i++) {
            pos[i] = order[i];
            if (i == 0 || !sameRow(keys, order[i - 1], order[i], cols, nan)) starts[g++] = i;
        }
        starts[g] = rows;
        return new Groups(pos, starts, g);
    }

    private static boolean sameRow(long[] keys, int a, int b, int cols, Long nan) {
        for (int c = 0; c < cols; c++) {
            long u = keys[a * cols + c], v = keys[b * cols + c];
            if (u != v || (nan != null && u == nan)) return false;
        }
        return true;
    }

    // ---- writing results ----------------------------------------------------------------------------

    /** {@code dst[dBase + j * dStride] = src[sBase + pos[j] * sStride]} for j < count; same dtype, copied exactly. */
    public static void gather(
            TensorImpl src, long sBase, long sStride, long[] pos, int count, TensorImpl dst, long dBase, long dStride) {
        Object s = src.storage().array(), d = dst.storage().array();
        if (s != null && d != null) {
            switch (s) {
                case float[] a -> {
                    float[] b = (float[]) d;
                    for (int j = 0; j < count; j++)
                        b[(int) (dBase + j * dStride)] = a[(int) (sBase + pos[j] * sStride)];
                }
                case double[] a -> {
                    double[] b = (double[]) d;
                    for (int j = 0; j < count; j++)
                        b[(int) (dBase + j * dStride)] = a[(int) (sBase + pos[j] * sStride)];
                }
                case long[] a -> {
                    long[] b = (long[]) d;
                    for (int j = 0; j < count; j++)
                        b[(int) (dBase + j * dStride)] = a[(int) (sBase + pos[j] * sStride)];
                }
                case int[] a -> {
                    int[] b = (int[]) d;
                    for (int j = 0; j < count; j++)
                        b[(int) (dBase + j * dStride)] = a[(int) (sBase + pos[j] * sStride)];
                }
                case short[] a -> {
                    short[] b = (short[]) d;
                    for (int j = 0; j < count; j++)
                        b[(int) (dBase + j * dStride)] = a[(int) (sBase + pos[j] * sStride)];
                }
                case byte[] a -> {
                    byte[] b = (byte[]) d;
                    for (int j = 0; j < count; j++)
                        b[(int) (dBase + j * dStride)] = a[(int) (sBase + pos[j] * sStride)];
                }
                default -> throw new IllegalStateException("unexpected storage array " + s.getClass());
            }
            return;
        }
        ElementIO io = ElementIO.of(src.dtype());
        MemorySegment ss = src.storage().segment(), ds = dst.storage().segment();
        boolean floating = src.dtype().isFloatingPoint();
        for (int j = 0; j < count; j++) {
            long from = sBase + pos[j] * sStride, to = dBase + j * dStride;
            if (floating) io.setDouble(ds, to, io.getDouble(ss, from));
            else io.setLong(ds, to, io.getLong(ss, from));
        }
    }

    /** Writes {@code pos[0..count)} into an int64 (or int32) tensor at {@code base + j * stride}. */
    public static void writePositions(long[] pos, int count, TensorImpl out, long base, long stride) {
        if (out.storage().array() instanceof long[] a) {
            for (int j = 0; j < count; j++) a[(int) (base + j * stride)] = pos[j];
            return;
        }
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment s = out.storage().segment();
        for (int j = 0; j < count; j++) io.setLong(s, base + j * stride, pos[j]);
    }

    /** A value converted to {@code d} and back (how a compute dtype rounds), for floating {@code d}. */
    public static double roundTo(DType d, double v) {
        return switch (d) {
            case FLOAT64 -> v;
            case FLOAT32 -> (float) v;
            case FLOAT16 -> LowPrecision.halfToFloat(LowPrecision.floatToHalf((float) v));
            case BFLOAT16 -> LowPrecision.bfloat16ToFloat(LowPrecision.floatToBFloat16((float) v));
            default -> throw new IllegalArgumentException("no rounding rule for " + d);
        };
    }
}
