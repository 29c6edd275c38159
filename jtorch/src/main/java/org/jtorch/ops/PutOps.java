package org.jtorch.ops;

import static org.jtorch.ops.IndexGeometry.longIndex;
import static org.jtorch.ops.IndexGeometry.restrided;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.IndexLoops;
import org.jtorch.kernels.cpu.IndexLoops.Indexers;
import org.jtorch.kernels.cpu.IndexLoops.Reduce;

/**
 * {@code put}/{@code put_}: writes {@code source} at flat (row-major) positions of {@code self}, the inverse of
 * {@code take}.
 *
 * <p>Duplicate positions receive their values in index order, so the last one wins (or, with {@code accumulate}, they
 * all add up in that order): JTorch's result is deterministic. PyTorch's CPU kernel without {@code accumulate} is not,
 * so the op is tagged {@link OpDef.Flag#NONDETERMINISTIC} for that case, as ATen alerts: under
 * {@code torch.use_deterministic_algorithms(True)} it raises (or warns) exactly as PyTorch does.
 */
public final class PutOps {
    private PutOps() {}

    /** {@code put(self, index, source, accumulate=False)}: a copy of self with source written at the flat positions. */
    public static final OpDef PUT = OpDef.structured(
                    "put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
                    PutOps::infer,
                    PutOps::run)
            .nondeterministicWhen("put_", args -> !accumulate(args) && ((Tensor) args[0]).device() != Device.META)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor index = (Tensor) a[1], source = (Tensor) a[2];
                // derivatives.yaml: self gets grad with the written places zeroed (unless accumulating), source
                // the gradient read back at its positions
                Tensor self = accumulate(a) ? g[0] : put(g[0], index, Creation.zerosLike(source), false);
                Tensor src = ShapeOps.reshape(IndexingOps.TAKE.call1(g[0], index), source.shape());
                return new Tensor[] {self, null, src};
            })
            .deriveJvp(Jvps.linearExcept(1))
            .vmapFallsBack("flat positions into each example's storage order");

    /** {@code self.put(index, source, accumulate)}. */
    public static Tensor put(Tensor self, Tensor index, Tensor source, boolean accumulate) {
        return PUT.call1(self, index, source, accumulate);
    }

    private static boolean accumulate(Object[] args) {
        return args[3] != null && (Boolean) args[3];
    }

    /** ATen's checks of {@code put_}, in its order and with its messages. */
    private static Spec infer(Object[] args) {
        Tensor self = (Tensor) args[0], index = (Tensor) args[1], source = (Tensor) args[2];
        if (index.dtype() != DType.INT64) {
            throw new TorchException("put_(): Expected a long tensor for index, but got "
                    + index.dtype().cppName());
        }
        if (self.dtype() != source.dtype()) {
            throw new TorchException("put_(): self and source expected to have the same dtype, but got self.dtype = "
                    + self.dtype().cppName() + " and source.dtype = "
                    + source.dtype().cppName());
        }
        if (source.numel() != index.numel()) {
            throw new IndexOutOfBoundsException(
                    "put_(): Expected source and index to have the same number of elements, but got source.numel() = "
                            + source.numel() + ", index.numel() = " + index.numel());
        }
        if (self.numel() == 0 && index.numel() != 0) {
            throw new IndexOutOfBoundsException("put_(): Tried to put elements into an empty tensor");
        }
        return Spec.of(self.shape(), self.dtype(), Devices.common("put_", self, index, source), null);
    }

    /**
     * Scatters in index order into the result read as 1-d; a result that is not contiguous (an in-place call on a
     * transposed tensor) is written through a contiguous copy, so that flat positions are row-major.
     */
    private static void run(Object[] args, Tensor[] outs, Spec spec) {
        Tensor self = (Tensor) args[0], out = outs[0];
        if (out != self) CopyOps.convert(self, out);
        Tensor flat = out.isContiguous() ? out : CopyOps.contiguous(out);
        Tensor index = longIndex((Tensor) args[1]);
        long[] shape = index.impl().shapeRef();
        Tensor source = ShapeOps.reshape(CopyOps.contiguous((Tensor) args[2]), shape);
        long n = flat.numel();
        IndexLoops.scatter(
                restrided(flat, shape, new long[shape.length]).impl(),
                source.impl(),
                Indexers.one(
                        index.impl(),
                        1,
                        n,
                        true,
                        (v, which, size) -> new IndexOutOfBoundsException(
                                "out of range: tried to access index " + v + " on a tensor of " + size + " elements.")),
                accumulate(args) ? Reduce.ADD : Reduce.ASSIGN,
                null,
                -1);
        if (flat != out) CopyOps.convert(flat, out);
    }
}
