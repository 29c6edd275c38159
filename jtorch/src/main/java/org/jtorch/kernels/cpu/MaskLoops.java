package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.TensorImpl;

/**
 * Loops driven by where a tensor is non-zero, in row-major order: {@code nonzero} (coordinates of the non-zero
 * elements) and {@code masked_scatter} (consecutive source elements into the selected places). Both walk the tensor row
 * by row (a row = the last dim), so that the test for non-zero runs in one typed loop per row and coordinates are only
 * built for the elements that are found.
 */
public final class MaskLoops {
    private MaskLoops() {}

    /** Elements per block of nonzero's two passes; blocks are counted, then filled, in parallel. */
    private static final long BLOCK = 1 << 16;

    /**
     * Finds the non-zero elements of a row of {@code len} elements starting at storage index {@code at} with step
     * {@code step}: -0.0 is zero, NaN is not, a complex value is non-zero if either part is. The typed loops are
     * branch-free (a position is always written, and kept by advancing the count), since masks are often half set and a
     * branch per element would be mispredicted half the time.
     */
    private abstract static class RowScan {
        /** Writes the positions of the non-zero elements into {@code hits}; returns how many. */
        abstract int find(long at, long step, int len, int[] hits);

        static RowScan of(TensorImpl t) {
            Object array = t.storage().array();
            DType d = t.dtype();
            if (array instanceof byte[] a && d.isIntegral(true))
                return new RowScan() {
                    @Override
                    int find(long at, long step, int len, int[] hits) {
                        int k = 0, p = (int) at, s = (int) step;
                        for (int j = 0; j < len; j++) {
                            hits[k] = j;
                            k += a[p + j * s] != 0 ? 1 : 0;
                        }
                        return k;
                    }
                };
            if (array instanceof float[] a && d == DType.FLOAT32)
                return new RowScan() {
                    @Override
                    int find(long at, long step, int len, int[] hits) {
                        int k = 0, p = (int) at, s = (int) step;
                        for (int j = 0; j < len; j++) {
                            hits[k] = j;
                            k += a[p + j * s] != 0 ? 1 : 0;
                        }
                        return k;
                    }
                };
            if (array instanceof double[] a && d == DType.FLOAT64)
                return new RowScan() {
                    @Override
                    int find(long at, long step, int len, int[] hits) {
                        int k = 0, p = (int) at, s = (int) step;
                        for (int j = 0; j < len; j++) {
                            hits[k] = j;
                            k += a[p + j * s] != 0 ? 1 : 0;
                        }
                        return k;
                    }
                };
            if (array instanceof long[] a)
                return new RowScan() {
                    @Override
                    int find(long at, long step, int len, int[] hits) {
                        int k = 0, p = (int) at, s = (int) step;
                        for (int j = 0; j < len; j++) {
                            hits[k] = j;
                            k += a[p + j * s] != 0 ? 1 : 0;
                        }
                        return k;
                    }
                };
            ElementIO io = ElementIO.of(d);
            MemorySegment seg = t.storage().segment();
            boolean complex = d.isComplex(), floating = d.isFloatingPoint();
            return new RowScan() {
                @Override
                int find(long at, long step, int len, int[] hits) {
                    int k = 0;
                    for (int j = 0; j < len; j++) {
                        long i = at + j * step;
                        boolean nz = complex
                                ? io.getDouble(seg, i) != 0 || io.getImag(seg, i) != 0
                                : floating ? io.getDouble(seg, i) != 0 : io.getLong(seg, i) != 0;
                        if (nz) hits[k++] = j;
                    }
                    return k;
                }
            };
        }
    }

    /** A tensor as rows along its last dim (a 0-d tensor is one row of one element). */
    private record Rows(long[] outer, long[] outerStrides, long offset, long length, long step, long count) {
        static Rows of(TensorImpl t) {
            int nd = t.dim();
            if (nd == 0) return new Rows(Shapes.SCALAR, Shapes.SCALAR, t.storageOffset(), 1, 1, 1);
            long[] outer = Arrays.copyOf(t.shapeRef(), nd - 1), outerStrides = Arrays.copyOf(t.strideRef(), nd - 1);
            long length = t.shapeRef()[nd - 1];
            return new Rows(
                    outer,
                    outerStrides,
                    t.storageOffset(),
                    length,
                    t.strideRef()[nd - 1],
                    length == 0 ? 0 : Shapes.numel(outer));
        }

        /** Sets {@code coord} to the coordinates of row {@code r}; returns the row's storage index. */
        long start(long r, long[] coord) {
            long at = offset;
            for (int d = outer.length - 1; d >= 0; d--) {
                coord[d] = r % outer[d];
                r /= outer[d];
                at += coord[d] * outerStrides[d];
            }
            return at;
        }

        /** Moves {@code coord} to the next row; returns its storage index given the current one. */
        long next(long at, long[] coord) {
            for (int d = outer.length - 1; d >= 0; d--) {
                at += outerStrides[d];
                if (++coord[d] < outer[d]) return at;
                at -= coord[d] * outerStrides[d];
                coord[d] = 0;
            }
            return at;
        }
    }

    /**
     * Writes the coordinates of the first {@code out.size(0)} non-zero elements of {@code self} (row-major order) into
     * the rows of {@code out} ([size, ndim] int64, contiguous), and {@code fill} into the rows left over
     * ({@code nonzero_static}).
     */
    public static void nonzero(TensorImpl self, TensorImpl out, long fill) {
        long[] o = (long[]) out.storage().array();
        int ndim = self.dim();
        long size = out.shapeRef()[0];
        int base = (int) out.storageOffset();
        Rows rows = Rows.of(self);
        RowScan scan = RowScan.of(self);
        long rowsPerBlock = Math.max(1, BLOCK / Math.max(rows.length(), 1));
        long blocks = (rows.count() + rowsPerBlock - 1) / rowsPerBlock;
        long[] firstHit = new long[(int) blocks + 1];
        Parallel.forRange(blocks, 1, (s, e) -> {
            long[] coord = new long[Math.max(ndim - 1, 0)];
            int[] hits = new int[(int) rows.length()];
            for (long b = s; b < e; b++) {
                long r0 = b * rowsPerBlock, r1 = Math.min(rows.count(), r0 + rowsPerBlock), found = 0;
                long at = rows.start(r0, coord);
                for (long r = r0; r < r1; r++, at = rows.next(at, coord))
                    found += scan.find(at, rows.step(), (int) rows.length(), hits);
                firstHit[(int) b + 1] = found;
            }
        });
        for (int b = 0; b < blocks; b++) firstHit[b + 1] += firstHit[b];
        Parallel.forRange(blocks, 1, (s, e) -> {
            long[] coord = new long[Math.max(ndim - 1, 0)];
            int[] hits = new int[(int) rows.length()];
            for (long b = s; b < e; b++) {
                long row = firstHit[(int) b];
                long r0 = b * rowsPerBlock, r1 = Math.min(rows.count(), r0 + rowsPerBlock);
                long at = rows.start(r0, coord);
                for (long r = r0; r < r1 && row < size; r++, at = rows.next(at, coord)) {
                    int k = scan.find(at, rows.step(), (int) rows.length(), hits);
                    for (int h = 0; h < k && row < size; h++, row++) {
                        int p = (int) (base + row * ndim);
                        System.arraycopy(coord, 0, o, p, coord.length);
                        if (ndim > 0) o[p + ndim - 1] = hits[h];
                    }
                }
            }
        });
        long found = Math.min(size, firstHit[(int) blocks]);
        Arrays.fill(o, (int) (base + found * ndim), (int) (base + size * ndim), fill);
    }

    /**
     * {@code out[i] = source[k++]} for each element where the mask (broadcast to out's shape) is non-zero, in row-major
     * order; {@code source} is read in its own row-major order.
     */
    public static void maskedScatter(TensorImpl out, TensorImpl mask, TensorImpl source) {
        if (out.numel() == 0) return;
        TensorImpl m = mask.viewOf(
                mask.storageOffset(),
                out.shapeRef(),
                Shapes.broadcastStrides(mask.shapeRef(), mask.strideRef(), out.shapeRef()));
        Rows maskRows = Rows.of(m), outRows = Rows.of(out);
        RowScan scan = RowScan.of(m);
        MemorySegment dst = out.storage().segment(), src = source.storage().segment();
        long item = out.dtype().itemSize(), available = source.numel(), taken = 0;
        long[] coord = new long[Math.max(out.dim() - 1, 0)], outCoord = coord.clone();
        int[] hits = new int[(int) maskRows.length()];
        long at = maskRows.start(0, coord), to = outRows.start(0, outCoord);
        for (long r = 0; r < maskRows.count(); r++, at = maskRows.next(at, coord), to = outRows.next(to, outCoord)) {
            int k = scan.find(at, maskRows.step(), (int) maskRows.length(), hits);
            for (int h = 0; h < k; h++) {
                if (taken >= available)
                    throw new TorchException("Number of elements of source < number of ones in mask");
                MemorySegment.copy(
                        src, source.elementIndex(taken++) * item, dst, (to + hits[h] * outRows.step()) * item, item);
            }
        }
    }
}
