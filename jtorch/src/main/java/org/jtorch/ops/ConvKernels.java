package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.autograd.GradMode;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.blas.OpenBlas.Transpose;
import org.jtorch.kernels.cpu.JavaGemm;
import org.jtorch.kernels.cpu.Parallel;

/**
 * The CPU kernels of {@link ConvOps}: im2col + GEMM. For each sample and group, the input patches are
 * unfolded into a [C/G·kh·kw, oh·ow] column matrix, and
 * <ul>
 *   <li>forward: {@code out[n, g] = W[g] · cols} (one GEMM, bias pre-filled, beta 1);</li>
 *   <li>grad input: {@code cols = W[g]ᵀ · grad[n, g]}, folded back and summed into the input (col2im);</li>
 *   <li>grad weight: {@code gW[g] += grad[n, g] · colsᵀ}, summed over samples in order.</li>
 * </ul>
 * A 1×1 kernel with stride 1 and no padding needs no unfolding: the input is its own column matrix.
 * Half types are computed in float32, float64 in float64. The forward and grad-input passes run samples in
 * parallel (each worker with its own column buffer and single-sample GEMMs); grad weight runs samples in
 * order so that its sums are the same bits for any thread count, letting OpenBLAS use the threads.
 */
final class ConvKernels {
    private ConvKernels() {}

    /** A dense array copy of a tensor in the compute precision: {@code float[]} or {@code double[]} from {@code offset}. */
    private record Dense(Object array, int offset) {}

    private static DType computeType(DType d) { return d == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32; }

    /** The tensor's own heap array when it is already dense in the compute type, else a dense copy. */
    private static Dense dense(Tensor t, DType compute) {
        Tensor c = t;
        if (c.dtype() != compute) c = CopyOps.to(c, compute);
        if (!c.isContiguous() || c.storage().array() == null) c = CopyOps.clone(c);
        return new Dense(c.storage().array(), Math.toIntExact(c.storageOffset()));
    }

    /** Where a kernel writes: the output's own array when it can, else a float32/float64 buffer copied out at the end. */
    private record Target(Tensor out, Tensor buffer, Object array, int offset) {
        static Target of(Tensor out, DType compute) {
            boolean direct = out.dtype() == compute && out.isContiguous() && out.storage().array() != null;
            Tensor buffer = direct ? out : Tensor.empty(out.shapeRef(), compute, Device.CPU);
            return new Target(out, buffer, buffer.storage().array(), Math.toIntExact(buffer.storageOffset()));
        }

        void finish() { if (buffer != out) CopyOps.convert(buffer, out); }
    }

    // ---- forward -----------------------------------------------------------------------------------------

    static void forward(Tensor input, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        try (GradMode.Scope s = GradMode.set(false)) {
            DType ct = computeType(out.dtype());
            Dense x = dense(input, ct), w = dense(weight, ct), b = bias == null ? null : dense(bias, ct);
            Target t = Target.of(out, ct);
            int cout = (int) g.cout(), cg = (int) (g.cout() / g.groups()), kg = (int) (g.cin() / g.groups() * g.kh() * g.kw());
            int l = (int) (g.oh() * g.ow()), inPlane = (int) (g.cin() * g.h() * g.w());
            boolean direct = unfoldFree(g);
            Parallel.forRange(g.n(), 1, (n0, n1) -> {
                Object cols = direct ? null : alloc(ct, (long) kg * g.groups() * l);
                for (long n = n0; n < n1; n++) {
                    int outAt = t.offset() + (int) n * cout * l;
                    fillBias(t.array(), outAt, b, cout, l);
                    Object src = direct ? x.array() : cols;
                    int srcAt = direct ? x.offset() + (int) n * inPlane : 0;
                    if (!direct) im2col(x.array(), x.offset() + (int) n * inPlane, g, cols);
                    for (int gr = 0; gr < g.groups(); gr++) {
                        gemm(ct, Transpose.NONE, Transpose.NONE, cg, l, kg, w.array(), w.offset() + gr * cg * kg, kg,
                                src, srcAt + gr * kg * l, l, 1, t.array(), outAt + gr * cg * l, l);
                    }
                }
            });
            t.finish();
        }
    }

    private static boolean unfoldFree(ConvOps.Geometry g) {
        return g.kh() == 1 && g.kw() == 1 && g.sh() == 1 && g.sw() == 1 && g.ph() == 0 && g.pw() == 0;
    }

    private static void fillBias(Object out, int at, Dense b, int cout, int l) {
        if (out instanceof float[] o) {
            for (int c = 0; c < cout; c++) java.util.Arrays.fill(o, at + c * l, at + (c + 1) * l, b == null ? 0f : ((float[]) b.array())[b.offset() + c]);
        } else {
            double[] o = (double[]) out;
            for (int c = 0; c < cout; c++) java.util.Arrays.fill(o, at + c * l, at + (c + 1) * l, b == null ? 0 : ((double[]) b.array())[b.offset() + c]);
        }
    }

    // ---- grad input ------------------------------------------------------------------------------------

    static void backwardInput(Tensor gradOutput, Tensor weight, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        try (GradMode.Scope s = GradMode.set(false)) {
            DType ct = computeType(out.dtype());
            Dense go = dense(gradOutput, ct), w = dense(weight, ct);
            Target t = Target.of(out, ct);
            int cout = (int) g.cout(), cg = (int) (g.cout() / g.groups()), kg = (int) (g.cin() / g.groups() * g.kh() * g.kw());
            int l = (int) (g.oh() * g.ow()), inPlane = (int) (g.cin() * g.h() * g.w());
            boolean direct = unfoldFree(g);
            Parallel.forRange(g.n(), 1, (n0, n1) -> {
                Object cols = direct ? null : alloc(ct, (long) kg * g.groups() * l);
                for (long n = n0; n < n1; n++) {
                    int inAt = t.offset() + (int) n * inPlane, goAt = go.offset() + (int) n * cout * l;
                    Object dst = direct ? t.array() : cols;
                    int dstAt = direct ? inAt : 0;
                    for (int gr = 0; gr < g.groups(); gr++) {
                        gemm(ct, Transpose.TRANSPOSE, Transpose.NONE, kg, l, cg, w.array(), w.offset() + gr * cg * kg, kg,
                                go.array(), goAt + gr * cg * l, l, 0, dst, dstAt + gr * kg * l, l);
                    }
                    if (!direct) col2im(cols, g, t.array(), inAt);
                }
            });
            t.finish();
        }
    }

    // ---- grad weight -----------------------------------------------------------------------------------

    static void backwardWeight(Tensor gradOutput, Tensor input, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        try (GradMode.Scope s = GradMode.set(false)) {
            DType ct = computeType(out.dtype());
            Dense go = dense(gradOutput, ct), x = dense(input, ct);
            Target t = Target.of(out, ct);
            int cout = (int) g.cout(), cg = (int) (g.cout() / g.groups()), kg = (int) (g.cin() / g.groups() * g.kh() * g.kw());
            int l = (int) (g.oh() * g.ow()), inPlane = (int) (g.cin() * g.h() * g.w());
            boolean direct = unfoldFree(g);
            fillBias(t.array(), t.offset(), null, 1, (int) out.numel());
            Object cols = direct ? null : alloc(ct, (long) kg * g.groups() * l);
            for (long n = 0; n < g.n(); n++) {
                Object src = direct ? x.array() : cols;
                int srcAt = direct ? x.offset() + (int) n * inPlane : 0;
                if (!direct) im2col(x.array(), x.offset() + (int) n * inPlane, g, cols);
                int goAt = go.offset() + (int) n * cout * l;
                for (int gr = 0; gr < g.groups(); gr++) {
                    gemm(ct, Transpose.NONE, Transpose.TRANSPOSE, cg, kg, l, go.array(), goAt + gr * cg * l, l,
                            src, srcAt + gr * kg * l, l, 1, t.array(), t.offset() + gr * cg * kg, kg);
                }
            }
            t.finish();
        }
    }

    // ---- GEMM --------------------------------------------------------------------------------------------

    private static Object alloc(DType ct, long size) {
        int n = Math.toIntExact(size);
        return ct == DType.FLOAT64 ? new double[n] : new float[n];
    }

    /** {@code C = op(A)·op(B) + beta·C} on dense row-major arrays; empty products only scale C. */
    private static void gemm(DType ct, Transpose ta, Transpose tb, int m, int n, int k, Object a, int ao, int lda,
                             Object b, int bo, int ldb, int beta, Object c, int co, int ldc) {
        if (m == 0 || n == 0) return;
        if (k == 0) {
            if (beta == 0) {
                if (c instanceof float[] f) for (int i = 0; i < m; i++) java.util.Arrays.fill(f, co + i * ldc, co + i * ldc + n, 0f);
                else for (int i = 0; i < m; i++) java.util.Arrays.fill((double[]) c, co + i * ldc, co + i * ldc + n, 0);
            }
            return;
        }
        if (OpenBlas.isAvailable()) {
            if (ct == DType.FLOAT64) {
                OpenBlas.dgemm(ta, tb, m, n, k, 1, MemorySegment.ofArray((double[]) a), ao, lda, MemorySegment.ofArray((double[]) b),
                        bo, ldb, beta, MemorySegment.ofArray((double[]) c), co, ldc);
            } else {
                OpenBlas.sgemm(ta, tb, m, n, k, 1f, MemorySegment.ofArray((float[]) a), ao, lda, MemorySegment.ofArray((float[]) b),
                        bo, ldb, beta, MemorySegment.ofArray((float[]) c), co, ldc);
            }
            return;
        }
        JavaGemm.gemm(1, m, n, k, Scalar.of(1L), Scalar.of((long) beta), operand(ct, a, ao, ta, lda),
                operand(ct, b, bo, tb, ldb), operand(ct, c, co, Transpose.NONE, ldc), false);
    }

    private static JavaGemm.Operand operand(DType ct, Object array, int offset, Transpose t, int ld) {
        MemorySegment seg = array instanceof float[] f ? MemorySegment.ofArray(f) : MemorySegment.ofArray((double[]) array);
        return t == Transpose.NONE ? new JavaGemm.Operand(seg, ct, offset, 0, ld, 1) : new JavaGemm.Operand(seg, ct, offset, 0, 1, ld);
    }

    // ---- im2col / col2im ---------------------------------------------------------------------------------

    /** Unfolds one sample (all channels) into {@code cols}, [C·kh·kw, oh·ow] row-major; padding reads as zero. */
    private static void im2col(Object x, int xo, ConvOps.Geometry g, Object cols) {
        int c = (int) g.cin(), h = (int) g.h(), w = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
        int oh = (int) g.oh(), ow = (int) g.ow(), sh = (int) g.sh(), sw = (int) g.sw(), ph = (int) g.ph(), pw = (int) g.pw();
        int dh = (int) g.dh(), dw = (int) g.dw(), l = oh * ow;
        boolean f = x instanceof float[];
        float[] xf = f ? (float[]) x : null, cf = f ? (float[]) cols : null;
        double[] xd = f ? null : (double[]) x, cd = f ? null : (double[]) cols;
        for (int ci = 0; ci < c; ci++) {
            for (int ki = 0; ki < kh; ki++) {
                for (int kj = 0; kj < kw; kj++) {
                    int row = ((ci * kh + ki) * kw + kj) * l;
                    int offW = kj * dw - pw;
                    // output columns whose input column is inside the image: ox in [lo, hi)
                    int lo = Math.max(0, ceilDiv(-offW, sw)), hi = Math.min(ow, ceilDiv(w - offW, sw));
                    if (hi < lo) hi = lo;
                    for (int oy = 0; oy < oh; oy++) {
                        int iy = oy * sh - ph + ki * dh, at = row + oy * ow;
                        if (iy < 0 || iy >= h) {
                            if (f) java.util.Arrays.fill(cf, at, at + ow, 0f);
                            else java.util.Arrays.fill(cd, at, at + ow, 0);
                            continue;
                        }
                        int src = xo + (ci * h + iy) * w + offW;
                        if (f) {
                            java.util.Arrays.fill(cf, at, at + lo, 0f);
                            if (sw == 1) System.arraycopy(xf, src + lo, cf, at + lo, hi - lo);
                            else for (int ox = lo; ox < hi; ox++) cf[at + ox] = xf[src + ox * sw];
                            java.util.Arrays.fill(cf, at + hi, at + ow, 0f);
                        } else {
                            java.util.Arrays.fill(cd, at, at + lo, 0);
                            if (sw == 1) System.arraycopy(xd, src + lo, cd, at + lo, hi - lo);
                            else for (int ox = lo; ox < hi; ox++) cd[at + ox] = xd[src + ox * sw];
                            java.util.Arrays.fill(cd, at + hi, at + ow, 0);
                        }
                    }
                }
            }
        }
    }

    /** The adjoint of {@link #im2col}: zeroes the sample at {@code xo}, then adds every column entry where it was read. */
    private static void col2im(Object cols, ConvOps.Geometry g, Object x, int xo) {
        int c = (int) g.cin(), h = (int) g.h(), w = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
        int oh = (int) g.oh(), ow = (int) g.ow(), sh = (int) g.sh(), sw = (int) g.sw(), ph = (int) g.ph(), pw = (int) g.pw();
        int dh = (int) g.dh(), dw = (int) g.dw(), l = oh * ow, plane = c * h * w;
        boolean f = x instanceof float[];
        float[] xf = f ? (float[]) x : null, cf = f ? (float[]) cols : null;
        double[] xd = f ? null : (double[]) x, cd = f ? null : (double[]) cols;
        if (f) java.util.Arrays.fill(xf, xo, xo + plane, 0f);
        else java.util.Arrays.fill(xd, xo, xo + plane, 0);
        for (int ci = 0; ci < c; ci++) {
            for (int ki = 0; ki < kh; ki++) {
                for (int kj = 0; kj < kw; kj++) {
                    int row = ((ci * kh + ki) * kw + kj) * l;
                    int offW = kj * dw - pw;
                    int lo = Math.max(0, ceilDiv(-offW, sw)), hi = Math.min(ow, ceilDiv(w - offW, sw));
                    for (int oy = 0; oy < oh; oy++) {
                        int iy = oy * sh - ph + ki * dh;
                        if (iy < 0 || iy >= h) continue;
                        int at = row + oy * ow, dst = xo + (ci * h + iy) * w + offW;
                        if (f) for (int ox = lo; ox < hi; ox++) xf[dst + ox * sw] += cf[at + ox];
                        else for (int ox = lo; ox < hi; ox++) xd[dst + ox * sw] += cd[at + ox];
                    }
                }
            }
        }
    }

    private static int ceilDiv(int a, int b) { return -Math.floorDiv(-a, b); }
}
