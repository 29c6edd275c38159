package org.jtorch.kernels.cpu;

import org.jtorch.DType;
import org.jtorch.kernels.cpu.ReduceLoops.Op;
import org.jtorch.kernels.cpu.simd.FloatReduceSimd;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.storage.TensorImpl;

/**
 * Array loops for contiguous heap float32/float64 tensors (see {@link ReduceLoops} for the numerical contract):
 *
 * <ul>
 *   <li>trailing reductions (each lane one contiguous range): sum/mean over fixed {@value ReduceLoops#BLOCK}-element
 *       blocks combined in block order in double, amax/amin;
 *   <li>leading reductions (the kept dims are the trailing ones): sum/mean with one double accumulator per output,
 *       adding rows in order, so the result equals the generic path's bit for bit while the reads stay contiguous;
 *   <li>float32 softmax/log_softmax over the last dim with the Vector API.
 * </ul>
 */
final class ReduceFastPaths {
    private ReduceFastPaths() {}

    private static boolean dense(TensorImpl t, DType dtype) {
        return t.dtype() == dtype && t.isContiguous() && t.storage().array() != null;
    }

    /** Runs the reduction if a fast path applies; returns whether it did. */
    static boolean tryReduce(Op op, TensorImpl out, TensorImpl in, ReduceLanes lanes) {
        if (op != Op.SUM && op != Op.MEAN && op != Op.AMAX && op != Op.AMIN) return false;
        DType dt = in.dtype();
        if ((dt != DType.FLOAT32 && dt != DType.FLOAT64) || !dense(in, dt) || !dense(out, dt) || lanes.size == 0)
            return false;
        if (lanes.singleRun() && lanes.runStride() == 1) {
            trailing(op, out, in, lanes);
            return true;
        }
        if (lanes.redShape.length == 1 && lanes.redStrides[0] == lanes.outputs && (op == Op.SUM || op == Op.MEAN)) {
            leading(op == Op.MEAN, out, in, lanes);
            return true;
        }
        return false;
    }

    // ---- trailing: lane r is [r * size, (r + 1) * size) ------------------------------------------------

    private static void trailing(Op op, TensorImpl out, TensorImpl in, ReduceLanes lanes) {
        Object x = in.storage().array();
        int xo = (int) in.storageOffset();
        long len = lanes.size, rows = lanes.outputs;
        if (rows == 1) {
            store(out, 0, finish(op, full(op, x, xo, len), len));
            return;
        }
        Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / len), (s, e) -> {
            for (long r = s; r < e; r++) store(out, r, finish(op, lane(op, x, xo + (int) (r * len), len), len));
        });
    }

    private static void store(TensorImpl out, long i, double v) {
        int k = (int) (out.storageOffset() + i);
        if (out.storage().array() instanceof float[] y) y[k] = (float) v;
        else out.storage().doubles()[k] = v;
    }

    private static double finish(Op op, double v, long len) {
        return op == Op.MEAN ? v / len : v;
    }

    /** One lane serially: the block results combined in block order. */
    private static double lane(Op op, Object x, int off, long len) {
        double acc = 0;
        for (long b = 0; b < len; b += ReduceLoops.BLOCK) {
            double v = block(op, x, off + (int) b, (int) Math.min(ReduceLoops.BLOCK, len - b));
            acc = b == 0 ? v : combine(op, acc, v);
        }
        return acc;
    }

    /** One lane with its blocks computed in parallel: the same blocks and combination order as {@link #lane}. */
    private static double full(Op op, Object x, int off, long len) {
        int blocks = (int) ((len + ReduceLoops.BLOCK - 1) / ReduceLoops.BLOCK);
        if (blocks == 1) return block(op, x, off, (int) len);
        double[] parts = new double[blocks];
        Parallel.forRange(blocks, 1, (s, e) -> {
            for (long b = s; b < e; b++) {
                long start = b * ReduceLoops.BLOCK;
                parts[(int) b] = block(op, x, off + (int) start, (int) Math.min(ReduceLoops.BLOCK, len - start));
            }
        });
        double acc = parts[0];
        for (int b = 1; b < blocks; b++) acc = combine(op, acc, parts[b]);
        return acc;
    }

    private static double combine(Op op, double acc, double v) {
        return switch (op) {
            case AMAX -> acc != acc || v != v ? Double.NaN : Math.max(acc, v);
            case AMIN -> acc != acc || v != v ? Double.NaN : Math.min(acc, v);
            default -> acc + v;
        };
    }

    private static double block(Op op, Object array, int off, int n) {
        if (array instanceof float[] x) {
            return switch (op) {
                case AMAX -> FloatSimd.max(x, off, n);
                case AMIN -> FloatReduceSimd.min(x, off, n);
                default -> FloatSimd.sum(x, off, n);
            };
        }
        double[] x = (double[]) array;
        return switch (op) {
            case AMAX -> extremum(x, off, n, true);
            case AMIN -> extremum(x, off, n, false);
            default -> sum(x, off, n);
        };
    }

    /** Four independent accumulators, so the adds pipeline. */
    private static double sum(double[] x, int off, int n) {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (; i + 4 <= n; i += 4) {
            s0 += x[off + i];
            s1 += x[off + i + 1];
            s2 += x[off + i + 2];
            s3 += x[off + i + 3];
        }
        for (; i < n; i++) s0 += x[off + i];
        return (s0 + s1) + (s2 + s3);
    }

    private static double extremum(double[] x, int off, int n, boolean max) {
        double m = x[off];
        for (int i = 1; i < n && m == m; i++) {
            double v = x[off + i];
            if (v != v || (max ? v > m : v < m)) m = v;
        }
        return m;
    }

    // ---- leading: element (i, j) of lane j is at i * outputs + j ---------------------------------------

    private static void leading(boolean mean, TensorImpl out, TensorImpl in, ReduceLanes lanes) {
        long rows = lanes.size, cols = lanes.outputs;
        Object x = in.storage().array();
        int xo = (int) in.storageOffset();
        Parallel.forRange(cols, Math.max(1, Parallel.GRAIN / rows), (s, e) -> {
            int n = (int) (e - s);
            double[] acc = new double[n];
            for (long i = 0; i < rows; i++) {
                int base = xo + (int) (i * cols + s);
                if (x instanceof float[] f) {
                    for (int j = 0; j < n; j++) acc[j] += f[base + j];
                } else {
                    double[] d = (double[]) x;
                    for (int j = 0; j < n; j++) acc[j] += d[base + j];
                }
            }
            for (int j = 0; j < n; j++) store(out, s + j, mean ? acc[j] / rows : acc[j]);
        });
    }

    // ---- softmax --------------------------------------------------------------------------------------

    /**
     * float32 softmax/log_softmax over the last dim of contiguous tensors: subtract the row maximum, exponentiate and
     * sum with the Vector API, then normalise in float as PyTorch's vectorised kernel does. Returns whether it applied.
     */
    static boolean trySoftmax(boolean log, TensorImpl out, TensorImpl in, int dim) {
        if (!dense(in, DType.FLOAT32) || !dense(out, DType.FLOAT32) || dim != in.dim() - 1) return false;
        float[] x = in.storage().floats(), y = out.storage().floats();
        int xo = (int) in.storageOffset(), yo = (int) out.storageOffset();
        int n = (int) in.shapeRef()[dim];
        long rows = in.numel() / n;
        Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / (4L * n)), (s, e) -> {
            for (long r = s; r < e; r++) {
                int xi = xo + (int) (r * n), yi = yo + (int) (r * n);
                float max = FloatSimd.max(x, xi, n);
                FloatSimd.binaryScalarRight(FloatSimd.Binary.SUB, x, xi, max, y, yi, n);
                FloatSimd.unary(FloatSimd.Unary.EXP, y, yi, y, yi, n);
                double sum = FloatSimd.sum(y, yi, n);
                if (log) { // (x - max) - log(sum): subtracting max first keeps small results exact for large x
                    FloatSimd.binaryScalarRight(FloatSimd.Binary.SUB, x, xi, max, y, yi, n);
                    FloatSimd.binaryScalarRight(FloatSimd.Binary.SUB, y, yi, (float) Math.log(sum), y, yi, n);
                } else {
                    FloatSimd.binaryScalarRight(FloatSimd.Binary.DIV, y, yi, (float) sum, y, yi, n);
                }
            }
        });
        return true;
    }

    /**
     * float32 backward of softmax/log_softmax over the last dim of contiguous tensors, from the output y: softmax
     * {@code y·(g - Σ g·y)}, log_softmax {@code g - exp(y)·Σ g}, one row at a time so that the row stays in cache
     * between its passes. Returns whether it applied.
     */
    static boolean trySoftmaxBackward(boolean log, TensorImpl out, TensorImpl grad, TensorImpl output, int dim) {
        if (!dense(grad, DType.FLOAT32)
                || !dense(output, DType.FLOAT32)
                || !dense(out, DType.FLOAT32)
                || dim != grad.dim() - 1) {
            return false;
        }
        float[] g = grad.storage().floats(),
                y = output.storage().floats(),
                z = out.storage().floats();
        int go = (int) grad.storageOffset(), yo = (int) output.storageOffset(), zo = (int) out.storageOffset();
        int n = (int) grad.shapeRef()[dim];
        long rows = grad.numel() / n;
        Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / (4L * n)), (s, e) -> {
            for (long r = s; r < e; r++) {
                int gi = go + (int) (r * n), yi = yo + (int) (r * n), zi = zo + (int) (r * n);
                if (log) {
                    float sum = (float) FloatSimd.sum(g, gi, n);
                    FloatSimd.unary(FloatSimd.Unary.EXP, y, yi, z, zi, n);
                    FloatSimd.binaryScalarRight(FloatSimd.Binary.MUL, z, zi, sum, z, zi, n);
                    FloatSimd.binary(FloatSimd.Binary.SUB, g, gi, z, zi, z, zi, n);
                } else {
                    float dot = (float) FloatSimd.dot(g, gi, y, yi, n);
                    FloatSimd.binaryScalarRight(FloatSimd.Binary.SUB, g, gi, dot, z, zi, n);
                    FloatSimd.binary(FloatSimd.Binary.MUL, z, zi, y, yi, z, zi, n);
                }
            }
        });
        return true;
    }
}
