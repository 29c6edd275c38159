package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;

/**
 * The backward of {@code pad}'s reflect, replicate and circular modes (ATen's {@code reflection_pad*d_backward},
 * {@code replication_pad*d_backward}): near the edges several output positions read the same input position, so their
 * gradients must be summed there rather than copied. The op is linear and its adjoint is {@code pad} itself, so its own
 * backward pads the incoming gradient the same way and gradients of any order work.
 */
public final class PadBackwardOps {
    private PadBackwardOps() {}

    /**
     * {@code pad_backward(grad_output, input_sizes, pad, mode)}: zeros of {@code input_sizes} into which each element
     * of {@code grad_output} (the shape {@code pad} gives an input of those sizes) is added at the input position
     * {@code pad} read it from; positions filled by a constant contribute nothing. The meta rule is {@code pad}'s, run
     * on a meta input of {@code input_sizes}, so the two ops accept exactly the same pads.
     */
    public static final OpDef PAD_BACKWARD = OpDef.structured(
                    "pad_backward(Tensor grad_output, SymInt[] input_sizes, SymInt[] pad, str mode) -> Tensor",
                    args -> {
                        Tensor g = (Tensor) args[0];
                        long[] sizes = Shapes.checkSizes("pad_backward", ((long[]) args[1]).clone());
                        Tensor input = Tensor.of(TensorImpl.meta(sizes, g.dtype()));
                        Spec padded = ArrangeOps.PAD.meta().infer(new Object[] {input, args[2], args[3], null});
                        if (!Arrays.equals(padded.shapes()[0], g.impl().shapeRef())) {
                            throw new TorchException("pad_backward: grad_output of shape "
                                    + Shapes.str(g.impl().shapeRef()) + " does not match the padded shape "
                                    + Shapes.str(padded.shapes()[0]));
                        }
                        return Spec.of(sizes, g.dtype(), g.device(), padded.plan());
                    },
                    (args, outs, spec) -> accumulate((Tensor) args[0], outs[0], (ArrangeOps.PadPlan) spec.plan()))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ArrangeOps.pad(g[0], (long[]) a[2], (ArrangeOps.PadMode) a[3], null)})
            .deriveJvp(Jvps::linear);

    /**
     * Sums every element of {@code g} into the position of {@code out} it was read from. Serial and in row-major order
     * of {@code g}, so the sums are the same bits on every run; the sums are kept in double (two arrays for complex)
     * and written once.
     */
    private static void accumulate(Tensor g, Tensor out, ArrangeOps.PadPlan p) {
        long n = out.numel();
        if (n == 0) return;
        int rank = out.dim();
        long[] inSizes = out.impl().shapeRef(),
                inStrides = Shapes.contiguousStrides(inSizes),
                gShape = g.impl().shapeRef(),
                gStrides = g.impl().strideRef();
        long[][] maps = new long[rank][];
        for (int d = 0; d < rank; d++) {
            if (p.before()[d] != 0 || p.after()[d] != 0)
                maps[d] = ArrangeOps.padMap(p.mode(), inSizes[d], p.before()[d], p.after()[d], gShape[d]);
        }
        boolean complex = g.isComplex();
        double[] re = new double[Math.toIntExact(n)], im = complex ? new double[re.length] : null;
        ElementIO io = ElementIO.of(g.dtype());
        MemorySegment gs = g.impl().storage().segment();
        long m = g.numel();
        long[] idx = new long[rank];
        long at = g.storageOffset();
        for (long k = 0; k < m; k++) {
            long target = 0;
            boolean filled = false;
            for (int d = 0; d < rank && !filled; d++) {
                long s = maps[d] == null ? idx[d] : maps[d][(int) idx[d]];
                if (s < 0) filled = true;
                else target += s * inStrides[d];
            }
            if (!filled) {
                re[(int) target] += io.getDouble(gs, at);
                if (complex) im[(int) target] += io.getImag(gs, at);
            }
            for (int d = rank - 1; d >= 0; d--) {
                at += gStrides[d];
                if (++idx[d] < gShape[d]) break;
                at -= gStrides[d] * gShape[d];
                idx[d] = 0;
            }
        }
        ElementIO outIo = ElementIO.of(out.dtype());
        MemorySegment os = out.impl().storage().segment();
        for (int i = 0; i < re.length; i++) {
            if (complex) outIo.setComplex(os, out.impl().elementIndex(i), re[i], im[i]);
            else outIo.setDouble(os, out.impl().elementIndex(i), re[i]);
        }
    }

    /**
     * {@code pad_backward(grad_output, input_sizes, pad, mode)}: the gradient of {@code pad} for an input of
     * {@code inputSizes}.
     */
    public static Tensor padBackward(Tensor gradOutput, long[] inputSizes, long[] pad, ArrangeOps.PadMode mode) {
        return PAD_BACKWARD.call1(gradOutput, inputSizes.clone(), pad.clone(), mode);
    }
}
