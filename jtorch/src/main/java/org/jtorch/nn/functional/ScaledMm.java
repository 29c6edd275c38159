package org.jtorch.nn.functional;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * {@code F.scaled_mm}, {@code F.scaled_addmm} and {@code F.scaled_addmm_} (2.15) on the CPU: the fp8 operands are
 * widened exactly to float32, block-wise scales are applied to the operands (they vary along K, so they must act inside
 * the sum), the product accumulates in float32, and tensor-wise / row-wise scales multiply the result, as the spec's
 * {@code scale_a[i]·scale_b[j]·Σ_k a[i,k]·b[k,j]} reads (spec nn-optim §5).
 */
final class ScaledMm {
    private ScaledMm() {}

    static Tensor scaledMm(Tensor a, Tensor b, ScaleSpec sa, ScaleSpec sb, ScaledMmOptions o) {
        checkOperands("scaled_mm", a, b, o);
        DType out = o.outputDtype() == null ? DType.BFLOAT16 : o.outputDtype();
        if (out != DType.FLOAT32 && out != DType.BFLOAT16 && out != DType.FLOAT16) {
            throw new TorchException(
                    "scaled_mm: output_dtype must be float32, bfloat16 or float16 on the CPU, but got " + out);
        }
        Tensor acc = product("scaled_mm", a, b, sa, sb);
        Tensor bias = o.bias();
        if (bias != null) {
            if (bias.dim() != 1 || bias.size(0) != b.size(1)) {
                throw new TorchException("scaled_mm: bias must have shape (N) = (" + b.size(1) + "), but got "
                        + Shapes.str(bias.shape()));
            }
            acc = acc.add(bias.to(DType.FLOAT32));
        }
        return acc.to(out);
    }

    static Tensor scaledAddmm(Tensor input, Tensor a, Tensor b, ScaleSpec sa, ScaleSpec sb, ScaledMmOptions o) {
        checkOperands("scaled_addmm", a, b, o);
        if (o.bias() != null)
            throw new IllegalArgumentException("scaled_addmm has no bias argument; add it through input");
        if (o.outputDtype() != null) {
            throw new IllegalArgumentException(
                    "scaled_addmm has no output_dtype argument: the result has input's dtype");
        }
        DType dt = input.dtype();
        if (dt != DType.FLOAT32 && dt != DType.BFLOAT16 && dt != DType.FLOAT16) {
            throw new TorchException("scaled_addmm: input must be float32, bfloat16 or float16, but got " + dt);
        }
        long[] shape = {a.size(0), b.size(1)};
        if (input.dim() != 2 || input.size(0) != shape[0] || input.size(1) != shape[1]) {
            throw new TorchException("scaled_addmm: input must have shape (mat1.size(0), mat2.size(1)) = "
                    + Shapes.str(shape) + ", but got " + Shapes.str(input.shape()));
        }
        Tensor acc = product("scaled_addmm", a, b, sa, sb).mul(o.alpha());
        // beta == 0 ignores input entirely (NaN in it does not propagate), as addmm documents
        if (o.beta() != 0) acc = input.to(DType.FLOAT32).mul(o.beta()).add(acc);
        return acc.to(dt);
    }

    static Tensor scaledAddmm_(Tensor input, Tensor a, Tensor b, ScaleSpec sa, ScaleSpec sb, ScaledMmOptions o) {
        Tensor result = scaledAddmm(input, a, b, sa, sb, o);
        input.copy_(result);
        return input;
    }

    private static void checkOperands(String op, Tensor a, Tensor b, ScaledMmOptions o) {
        checkFp8(op, "mat_a", a);
        checkFp8(op, "mat_b", b);
        if (a.size(1) != b.size(0)) {
            throw new TorchException(op + ": mat_a and mat_b shapes cannot be multiplied (" + a.size(0) + "x"
                    + a.size(1) + " and " + b.size(0) + "x" + b.size(1) + ")");
        }
        int[] cd = o.contractionDim();
        boolean ok = cd.length == 0 || (cd.length == 2 && (cd[0] == 1 || cd[0] == -1) && (cd[1] == 0 || cd[1] == -2));
        if (!ok) {
            throw new IllegalArgumentException(
                    op + ": contraction_dim must be empty or (1, 0), but got " + java.util.Arrays.toString(cd));
        }
    }

    private static void checkFp8(String op, String name, Tensor t) {
        if (t.dim() != 2)
            throw new TorchException(op + ": " + name + " must be a matrix, but got a " + t.dim() + "-D tensor");
        if (t.dtype() != DType.FLOAT8_E4M3FN && t.dtype() != DType.FLOAT8_E5M2) {
            throw new TorchException(
                    op + ": expected " + name + " to be float8_e4m3fn or float8_e5m2, but got " + t.dtype());
        }
    }

    /** {@code Σ_k a·b} in float32 with every scale of {@code sa}/{@code sb} applied. */
    private static Tensor product(String op, Tensor a, Tensor b, ScaleSpec sa, ScaleSpec sb) {
        Scaled x = scale(op, "a", a.to(DType.FLOAT32), sa, true);
        Scaled y = scale(op, "b", b.to(DType.FLOAT32), sb, false);
        Tensor acc = x.operand().mm(y.operand());
        if (x.outer() != null) acc = acc.mul(x.outer());
        return y.outer() == null ? acc : acc.mul(y.outer());
    }

    /** An operand with its block scales applied, and the product of its tensor-/row-wise scales (null = none). */
    private record Scaled(Tensor operand, Tensor outer) {}

    private static Scaled scale(String op, String which, Tensor m, ScaleSpec spec, boolean isA) {
        long rows = m.size(0), cols = m.size(1);
        long k = isA ? cols : rows, other = isA ? rows : cols;
        Tensor outer = null;
        List<Tensor> scales = spec.scales();
        for (int i = 0; i < scales.size(); i++) {
            ScalingType recipe = spec.recipes().get(i);
            String name = "scale_" + which + (scales.size() > 1 ? "[" + i + "]" : "");
            Tensor s = scales.get(i);
            if (spec.swizzle() != SwizzleType.NO_SWIZZLE
                    && recipe.block > 0
                    && recipe != ScalingType.BLOCKWISE_128X128) {
                s = unswizzle(op, name, s, other, ceilDiv(k, recipe.block), isA);
            } else if (spec.swizzle() != SwizzleType.NO_SWIZZLE) {
                throw new IllegalArgumentException(
                        op + ": " + spec.swizzle() + " applies to 1xN block scales only, not to " + recipe);
            }
            s = s.to(DType.FLOAT32);
            switch (recipe) {
                case TENSORWISE -> {
                    if (s.numel() != 1) throw shapeError(op, name, recipe, "one element", s);
                    Tensor v = s.reshape();
                    outer = outer == null ? v : outer.mul(v);
                }
                case ROWWISE -> {
                    long[] want = isA ? new long[] {rows, 1} : new long[] {1, cols};
                    if (!java.util.Arrays.equals(s.shape(), want))
                        throw shapeError(op, name, recipe, Shapes.str(want), s);
                    outer = outer == null ? s : outer.mul(s);
                }
                case BLOCKWISE_128X128 -> {
                    long[] want = {ceilDiv(rows, 128), ceilDiv(cols, 128)};
                    if (!java.util.Arrays.equals(s.shape(), want))
                        throw shapeError(op, name, recipe, Shapes.str(want), s);
                    m = m.mul(spread(s, 128, 128, rows, cols));
                }
                default -> {
                    long blocks = ceilDiv(k, recipe.block);
                    long[] want = isA ? new long[] {rows, blocks} : new long[] {blocks, cols};
                    if (!java.util.Arrays.equals(s.shape(), want))
                        throw shapeError(op, name, recipe, Shapes.str(want), s);
                    m = m.mul(isA ? spread(s, 1, recipe.block, rows, cols) : spread(s, recipe.block, 1, rows, cols));
                }
            }
        }
        return new Scaled(m, outer);
    }

    /** Each scale {@code s[i, j]} repeated over a {@code br × bc} tile, cropped to {@code rows × cols}. */
    private static Tensor spread(Tensor s, long br, long bc, long rows, long cols) {
        long sr = s.size(0), sc = s.size(1);
        return s.reshape(sr, 1, sc, 1)
                .expand(sr, br, sc, bc)
                .reshape(sr * br, sc * bc)
                .narrow(0, 0, rows)
                .narrow(1, 0, cols);
    }

    /**
     * Undoes NVIDIA's 32_4_4 layout: the logical scale matrix ({@code outer × blocks}: rows of mat_a, or columns of
     * mat_b, by K-blocks) padded to 128-row × 4-column tiles, each tile stored as 32 × 16 with element {@code (32·i +
     * j, c)} at {@code 16·j + 4·i + c}. For mat_b the result is transposed to {@code (blocks, N)}.
     */
    private static Tensor unswizzle(String op, String name, Tensor s, long outer, long blocks, boolean isA) {
        long rt = ceilDiv(outer, 128), ct = ceilDiv(blocks, 4);
        if (s.numel() != rt * ct * 512) {
            throw new TorchException(op + ": swizzled " + name + " must hold " + rt * 128 + " x " + ct * 4
                    + " (padded) scales = " + rt * ct * 512 + " elements, but got shape " + Shapes.str(s.shape()));
        }
        Tensor logical = s.reshape(rt, ct, 32, 4, 4)
                .permute(0, 3, 2, 1, 4)
                .reshape(rt * 128, ct * 4)
                .narrow(0, 0, outer)
                .narrow(1, 0, blocks);
        return isA ? logical : logical.t();
    }

    private static TorchException shapeError(String op, String name, ScalingType recipe, String want, Tensor s) {
        return new TorchException(op + ": for " + recipe + " scaling, " + name + " must have shape " + want
                + ", but got " + Shapes.str(s.shape()));
    }

    private static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
