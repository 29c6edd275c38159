package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.ElementIO;

/**
 * Grids and tilings: {@code tile}, {@code meshgrid}, {@code kron} and {@code cartesian_prod} as ATen composes them
 * (views, expand, repeat, broadcasting multiply, stack), and the index sets {@code tril_indices}/{@code triu_indices},
 * creation ops whose size the meta rule counts without data.
 */
public final class GridOps {
    private GridOps() {}

    /** {@code tile(self, dims)}: {@code repeat} with {@code dims} padded by leading 1s to the input's rank. */
    public static final OpDef TILE = OpDef.composite("tile(Tensor self, SymInt[] dims) -> Tensor", args -> {
        Tensor x = (Tensor) args[0];
        long[] dims = (long[]) args[1];
        if (dims.length < x.dim()) {
            long[] padded = new long[x.dim()];
            Arrays.fill(padded, 1);
            System.arraycopy(dims, 0, padded, x.dim() - dims.length, dims.length);
            dims = padded;
        }
        return JoinOps.REPEAT.call1(x, dims);
    });

    /**
     * {@code meshgrid(tensors, indexing)}: grid i is tensor i viewed along dim i and expanded to the full grid (views,
     * no copies); "xy" lays the first two inputs along the grid's dims 1 and 0, as numpy does.
     */
    public static final OpDef MESHGRID =
            OpDef.composite("meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", args -> {
                Tensor[] tensors = (Tensor[]) args[0];
                String indexing = (String) args[1];
                if (tensors.length == 0) throw new TorchException("meshgrid expects a non-empty TensorList");
                for (Tensor t : tensors) {
                    if (t.dim() > 1) {
                        throw new TorchException("torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                                + t.dim() + "-D tensor of shape " + Arrays.toString(t.shape()));
                    }
                }
                for (Tensor t : tensors) {
                    if (t.dtype() != tensors[0].dtype())
                        throw new TorchException("meshgrid expects all tensors to have the same dtype");
                }
                Devices.common("meshgrid", (Object[]) tensors);
                if (!indexing.equals("ij") && !indexing.equals("xy")) {
                    throw new TorchException(
                            "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: " + indexing);
                }
                boolean swap = indexing.equals("xy") && tensors.length >= 2;
                Tensor[] ts = tensors.clone();
                if (swap) {
                    ts[0] = tensors[1];
                    ts[1] = tensors[0];
                }
                int n = ts.length;
                long[] shape = new long[n];
                for (int i = 0; i < n; i++) shape[i] = ts[i].numel();
                Tensor[] grids = new Tensor[n];
                for (int i = 0; i < n; i++) {
                    long[] view = new long[n];
                    Arrays.fill(view, 1);
                    view[i] = -1;
                    grids[i] = ts[i].view(view).expand(shape);
                }
                if (swap) {
                    Tensor first = grids[0];
                    grids[0] = grids[1];
                    grids[1] = first;
                }
                return grids;
            });

    /** {@code kron(a, b)}: the Kronecker product, ATen's interleaved reshape and broadcasting multiply. */
    public static final OpDef KRON = OpDef.composite("kron(Tensor self, Tensor other) -> Tensor", args -> {
        Tensor a = (Tensor) args[0], b = (Tensor) args[1];
        int maxdim = Math.max(a.dim(), b.dim());
        int padA = maxdim - a.dim(), padB = maxdim - b.dim();
        long[] aShape = new long[2 * maxdim], bShape = new long[2 * maxdim], out = new long[maxdim];
        for (int i = 0; i < maxdim; i++) {
            aShape[2 * i] = i >= padA ? a.size(i - padA) : 1;
            aShape[2 * i + 1] = 1;
            bShape[2 * i] = 1;
            bShape[2 * i + 1] = i >= padB ? b.size(i - padB) : 1;
            out[i] = aShape[2 * i] * bShape[2 * i + 1];
        }
        return a.reshape(aShape).mul(b.reshape(bShape)).reshape(out);
    });

    /** {@code cartesian_prod(tensors)}: rows of the "ij" meshgrid stacked; a single input is returned as it is. */
    public static final OpDef CARTESIAN_PROD = OpDef.composite("cartesian_prod(Tensor[] tensors) -> Tensor", args -> {
        Tensor[] tensors = (Tensor[]) args[0];
        for (Tensor t : tensors) {
            if (t.dim() != 1) {
                throw new TorchException("Expect a 1D vector, but got shape " + Arrays.toString(t.shape()));
            }
        }
        if (tensors.length == 1) return tensors[0];
        Tensor[] grids = (Tensor[]) MESHGRID.call(tensors, "ij");
        List<Tensor> flat = new ArrayList<>();
        for (Tensor g : grids) flat.add(g.flatten());
        return JoinOps.stack(flat, 1);
    });

    /** The plan of an index-set creation: lower (tril) or upper, and the diagonal offset. */
    private record TrianglePlan(boolean lower, long row, long col, long offset) {
        /** How many columns of row i are in the triangle. */
        long count(long i) {
            return lower ? Math.clamp(i + offset + 1, 0, col) : col - Math.clamp(i + offset, 0, col);
        }

        /** The first column of row i in the triangle. */
        long first(long i) {
            return lower ? 0 : Math.clamp(i + offset, 0, col);
        }
    }

    private static OpDef triangleIndices(String name, boolean lower) {
        return OpDef.structured(
                name + "(int row, int col, int offset=0, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
                args -> {
                    long row = (Long) args[0], col = (Long) args[1], offset = (Long) args[2];
                    DType dtype = args[3] != null ? (DType) args[3] : DType.INT64;
                    if (row < 0) throw new TorchException("row must be non-negative, got" + row);
                    if (col < 0) throw new TorchException("col must be non-negative, got" + col);
                    if (dtype.isFloatingPoint() || dtype.isComplex() || dtype == DType.BOOL) {
                        throw new UnsupportedOperationException(
                                "\"" + name + "\" not implemented for '" + dtype.cppName() + "'");
                    }
                    TrianglePlan plan = new TrianglePlan(lower, row, col, offset);
                    long n = 0;
                    for (long i = 0; i < row; i++) n += plan.count(i);
                    return Spec.of(new long[] {2, n}, dtype, args[4] != null ? (Device) args[4] : Device.CPU, plan);
                },
                (args, outs, spec) -> {
                    TrianglePlan p = (TrianglePlan) spec.plan();
                    Tensor out = outs[0];
                    ElementIO io = ElementIO.of(out.dtype());
                    MemorySegment seg = out.impl().storage().segment();
                    long n = out.size(1), k = 0;
                    for (long i = 0; i < p.row(); i++) {
                        long first = p.first(i), count = p.count(i);
                        for (long j = 0; j < count; j++, k++) {
                            io.setLong(seg, k, i);
                            io.setLong(seg, n + k, first + j);
                        }
                    }
                },
                OpDef.Flag.NOT_DIFFERENTIABLE);
    }

    /** {@code tril_indices(row, col, offset)}: the (row, column) pairs of the lower triangle, row by row. */
    public static final OpDef TRIL_INDICES = triangleIndices("tril_indices", true);

    /** {@code triu_indices(row, col, offset)}: the (row, column) pairs of the upper triangle, row by row. */
    public static final OpDef TRIU_INDICES = triangleIndices("triu_indices", false);

    /** {@code torch.tile(x, dims)}. */
    public static Tensor tile(Tensor x, long... dims) {
        return TILE.call1(x, dims.clone());
    }

    /** {@code torch.meshgrid(tensors, indexing=)}. */
    public static Tensor[] meshgrid(String indexing, Tensor... tensors) {
        return (Tensor[]) Dispatcher.call(MESHGRID, tensors.clone(), indexing);
    }

    /** {@code torch.kron(a, b)}. */
    public static Tensor kron(Tensor a, Tensor b) {
        return KRON.call1(a, b);
    }

    /** {@code torch.cartesian_prod(tensors)}. */
    public static Tensor cartesianProd(Tensor... tensors) {
        return CARTESIAN_PROD.call1((Object) tensors.clone());
    }

    /** {@code torch.tril_indices(row, col, offset, dtype=, device=)}. */
    public static Tensor trilIndices(long row, long col, long offset, DType dtype, Device device) {
        return TRIL_INDICES.call1(row, col, offset, dtype, device);
    }

    /** {@code torch.triu_indices(row, col, offset, dtype=, device=)}. */
    public static Tensor triuIndices(long row, long col, long offset, DType dtype, Device device) {
        return TRIU_INDICES.call1(row, col, offset, dtype, device);
    }
}
