package org.jtorch.ops;

import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.TensorImpl;

/**
 * Shape and view ops: {@code view}, {@code reshape}, {@code permute}, {@code transpose}, {@code expand},
 * {@code squeeze}, {@code select}, {@code slice}, {@code diagonal}, {@code as_strided} and the ops composed from them.
 * A view op only computes new (offset, sizes, strides) over its input's storage, so it is its own meta rule and works
 * unchanged on meta tensors. Ops returning several tensors ({@code chunk}, {@code split}, {@code unbind}) return
 * {@code Tensor[]} from the dispatcher and an immutable {@code List<Tensor>} from the entry points.
 *
 * <p>Arguments follow the schemas: dims, sizes and indices are boxed {@code Long}s or {@code long[]}; {@code null} is
 * an absent optional.
 */
public final class ShapeOps {
    private ShapeOps() {}

    // ---- geometry helpers -------------------------------------------------------------------------

    private static Tensor self(Object[] args) {
        return (Tensor) args[0];
    }

    private static long lng(Object o) {
        return ((Number) o).longValue();
    }

    private static int dim(Object o, int rank) {
        return Shapes.wrapDim(lng(o), rank);
    }

    private static long[] remove(long[] a, int i) {
        long[] r = new long[a.length - 1];
        System.arraycopy(a, 0, r, 0, i);
        System.arraycopy(a, i + 1, r, i, a.length - i - 1);
        return r;
    }

    private static long[] insert(long[] a, int i, long v) {
        long[] r = new long[a.length + 1];
        System.arraycopy(a, 0, r, 0, i);
        r[i] = v;
        System.arraycopy(a, i, r, i + 1, a.length - i);
        return r;
    }

    /**
     * ATen's {@code infer_size}: replaces a single -1 in {@code shape} by the size that makes the element count
     * {@code numel}, with PyTorch's messages.
     */
    static long[] inferSize(long[] shape, long numel) {
        long newSize = 1;
        int inferDim = -1;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == -1) {
                if (inferDim >= 0) throw new TorchException("only one dimension can be inferred");
                inferDim = d;
            } else if (shape[d] >= 0) {
                newSize = numelFactor(newSize, shape[d]);
            } else {
                throw new TorchException("invalid shape dimension " + shape[d]);
            }
        }
        if (numel == newSize || (inferDim >= 0 && newSize > 0 && numel % newSize == 0)) {
            if (inferDim < 0) return shape;
            if (newSize == 0) {
                throw new TorchException("cannot reshape tensor of 0 elements into shape " + Shapes.str(shape)
                        + " because the unspecified dimension size -1 can be any value and is ambiguous");
            }
            long[] res = shape.clone();
            res[inferDim] = numel / newSize;
            return res;
        }
        throw new TorchException("shape '" + Shapes.str(shape) + "' is invalid for input of size " + numel);
    }

    /** {@code acc * size}, refusing with c10's message an element count that overflows int64. */
    private static long numelFactor(long acc, long size) {
        try {
            return Math.multiplyExact(acc, size);
        } catch (ArithmeticException overflow) {
            throw new TorchException("numel: integer multiplication overflow");
        }
    }

    /**
     * ATen's {@code computeStride}: strides that let a tensor of {@code oldShape}/{@code oldStride} be viewed as
     * {@code newShape}, or {@code null} when some new dim would span two memory chunks that are not contiguous with
     * each other. Old dims are grouped into maximal chunks that are contiguous among themselves; each chunk must be
     * covered exactly by a run of new dims.
     */
    static long[] computeStride(long[] oldShape, long[] oldStride, long[] newShape) {
        if (oldShape.length == 0) {
            long[] ones = new long[newShape.length];
            Arrays.fill(ones, 1);
            return ones;
        }
        long numel = Shapes.numel(oldShape);
        if (numel == 0)
            return Arrays.equals(oldShape, newShape) ? oldStride.clone() : Shapes.contiguousStrides(newShape);
        long[] newStride = new long[newShape.length];
        int viewD = newShape.length - 1;
        long chunkBaseStride = oldStride[oldStride.length - 1];
        long tensorNumel = 1, viewNumel = 1;
        for (int td = oldShape.length - 1; td >= 0; td--) {
            tensorNumel *= oldShape[td];
            boolean chunkEnds =
                    td == 0 || (oldShape[td - 1] != 1 && oldStride[td - 1] != tensorNumel * chunkBaseStride);
            if (!chunkEnds) continue;
            while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
                newStride[viewD] = viewNumel * chunkBaseStride;
                viewNumel *= newShape[viewD];
                viewD--;
            }
            if (viewNumel != tensorNumel) return null;
            if (td > 0) {
                chunkBaseStride = oldStride[td - 1];
                tensorNumel = 1;
                viewNumel = 1;
            }
        }
        return viewD == -1 ? newStride : null;
    }

    // ---- view ops ---------------------------------------------------------------------------------

    /** {@code view(self, size)}: same data, new shape; one size may be -1. */
    public static final OpDef VIEW = OpDef.view("view(Tensor(a) self, SymInt[] size) -> Tensor(a)", args -> {
                Tensor t = self(args);
                long[] shape = inferSize((long[]) args[1], t.numel());
                long[] strides = computeStride(t.impl().shapeRef(), t.impl().strideRef(), shape);
                if (strides == null) {
                    throw new TorchException(
                            "view size is not compatible with input tensor's size and stride (at least one dimension"
                                    + " spans across two contiguous subspaces). Use .reshape(...) instead.");
                }
                return Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), shape, strides));
            })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].reshape(Grads.inputShape(a, o))})
            .deriveJvp(Jvps::linear);

    /**
     * {@code reshape(self, shape)}: a view when the strides allow one, else a contiguous copy viewed as {@code shape}.
     */
    public static final OpDef RESHAPE =
            OpDef.composite("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)", args -> {
                Tensor t = self(args);
                long[] shape = inferSize((long[]) args[1], t.numel());
                Tensor base =
                        computeStride(t.impl().shapeRef(), t.impl().strideRef(), shape) != null ? t : CopyOps.clone(t);
                return VIEW.call1(base, shape);
            });

    /** {@code permute(self, dims)}: reorders the dims. */
    public static final OpDef PERMUTE = OpDef.view("permute(Tensor(a) self, int[] dims) -> Tensor(a)", args -> {
                Tensor t = self(args);
                long[] dims = (long[]) args[1];
                int n = t.dim();
                if (dims.length != n) {
                    throw new TorchException(
                            "permute(sparse_coo): number of dimensions in the tensor input does not match the length of"
                                    + " the desired ordering of dimensions i.e. input.dim() = " + n
                                    + " is not equal to len(dims) = " + dims.length);
                }
                long[] shape = new long[n], strides = new long[n];
                boolean[] seen = new boolean[n];
                for (int i = 0; i < n; i++) {
                    int d = Shapes.wrapDim(dims[i], n);
                    if (seen[d]) throw new TorchException("permute(): duplicate dims are not allowed.");
                    seen[d] = true;
                    shape[i] = t.impl().shapeRef()[d];
                    strides[i] = t.impl().strideRef()[d];
                }
                return Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), shape, strides));
            })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {g[0].permute(Grads.inversePermutation((long[]) a[1], ((Tensor) a[0]).dim()))})
            .deriveJvp(Jvps::linear);

    /** {@code transpose(self, dim0, dim1)}: swaps two dims. */
    public static final OpDef TRANSPOSE = OpDef.view(
                    "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", args -> {
                        Tensor t = self(args);
                        int d0 = dim(args[1], t.dim()), d1 = dim(args[2], t.dim());
                        long[] shape = t.shape(), strides = t.stride();
                        if (t.dim() > 0) {
                            shape[d0] = t.impl().shapeRef()[d1];
                            shape[d1] = t.impl().shapeRef()[d0];
                            strides[d0] = t.impl().strideRef()[d1];
                            strides[d1] = t.impl().strideRef()[d0];
                        }
                        return Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), shape, strides));
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ShapeOps.transpose(g[0], (int) (long) (Long) a[1], (int) (long) (Long) a[2])})
            .deriveJvp(Jvps::linear);

    /** {@code t(self)}: transpose of a matrix; 0-d and 1-d tensors are returned as views of themselves. */
    public static final OpDef T = OpDef.composite("t(Tensor(a) self) -> Tensor(a)", args -> {
        Tensor x = self(args);
        if (x.dim() > 2)
            throw new TorchException("t() expects a tensor with <= 2 dimensions, but self is " + x.dim() + "D");
        return TRANSPOSE.call1(x, 0L, x.dim() < 2 ? 0L : 1L);
    });

    /** {@code self.mT}: transposes the last two dims. */
    public static final OpDef MT = OpDef.composite("mT(Tensor(a) self) -> Tensor(a)", args -> {
        Tensor x = self(args);
        if (x.dim() < 2) {
            throw new TorchException(
                    "tensor.mT is only supported on matrices or batches of matrices. Got " + x.dim() + "-D tensor.");
        }
        return TRANSPOSE.call1(x, -2L, -1L);
    });

    /**
     * The tensor type as PyTorch's messages name it: {@code torch.FloatTensor} on CPU, {@code MetaFloatType} on meta.
     */
    private static String typeString(Tensor t) {
        return t.isMeta()
                ? "Meta" + t.dtype().cppName() + "Type"
                : "torch." + t.dtype().cppName() + "Tensor";
    }

    /** {@code expand(self, size)}: broadcasts size-1 dims (stride 0) and adds leading dims; -1 keeps a size. */
    public static final OpDef EXPAND = OpDef.view(
                    "expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)", args -> {
                        Tensor t = self(args);
                        long[] sizes = (long[]) args[1];
                        long[] tSizes = t.impl().shapeRef(), tStrides = t.impl().strideRef();
                        int ndim = sizes.length, tdim = tSizes.length;
                        if (ndim < tdim) {
                            throw new TorchException("expand(" + typeString(t) + "{" + Shapes.str(tSizes) + "}, size="
                                    + Shapes.str(sizes)
                                    + "): the number of sizes provided (" + ndim
                                    + ") must be greater or equal to the number of dimensions in the tensor ("
                                    + tdim + ")");
                        }
                        long[] shape = new long[ndim], strides = new long[ndim];
                        for (int i = ndim - 1; i >= 0; i--) {
                            int d = tdim - ndim + i;
                            long size = d >= 0 ? tSizes[d] : 1;
                            long stride = d >= 0 ? tStrides[d] : i + 1 < ndim ? shape[i + 1] * strides[i + 1] : 1;
                            long target = sizes[i];
                            if (target == -1) {
                                if (d < 0) {
                                    throw new TorchException("The expanded size of the tensor (-1) isn't allowed in a "
                                            + "leading, non-existing dimension " + i);
                                }
                                target = size;
                            }
                            if (size != target) {
                                if (size != 1) {
                                    throw new TorchException("The expanded size of the tensor (" + target
                                            + ") must match the existing size (" + size
                                            + ") at non-singleton dimension " + i + ".  Target sizes: "
                                            + Shapes.str(sizes) + ".  Tensor sizes: "
                                            + Shapes.str(tSizes));
                                }
                                size = target;
                                stride = 0;
                            }
                            shape[i] = size;
                            strides[i] = stride;
                        }
                        Shapes.checkSizes("expand", shape);
                        return Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), shape, strides));
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0]})
            .deriveJvp(Jvps::linear);

    /** {@code broadcast_to(self, size)}: {@code expand}. */
    public static final OpDef BROADCAST_TO = OpDef.composite(
            "broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)", args -> EXPAND.call1(args[0], args[1], false));

    /**
     * {@code squeeze(self, dim)}: removes size-1 dims among {@code dims}; {@code dims == null} means every size-1 dim
     * (the overload without dims). Dims that are not size 1 are kept silently, as in PyTorch.
     */
    public static final OpDef SQUEEZE = OpDef.view(
                    "squeeze.dims(Tensor(a) self, int[]? dim=None) -> Tensor(a)", args -> {
                        Tensor t = self(args);
                        int n = t.dim();
                        boolean[] chosen = new boolean[Math.max(n, 1)];
                        if (args[1] == null) {
                            Arrays.fill(chosen, true);
                        } else {
                            for (long d : (long[]) args[1]) {
                                int w = Shapes.wrapDim(d, n);
                                if (chosen[w])
                                    throw new TorchException(
                                            "dim " + w + " appears multiple times in the list of dims");
                                chosen[w] = true;
                            }
                        }
                        long[] shape = new long[n], strides = new long[n];
                        int k = 0;
                        for (int d = 0; d < n; d++) {
                            if (chosen[d] && t.impl().shapeRef()[d] == 1) continue;
                            shape[k] = t.impl().shapeRef()[d];
                            strides[k++] = t.impl().strideRef()[d];
                        }
                        return Tensor.viewOf(
                                t,
                                t.impl().viewOf(t.storageOffset(), Arrays.copyOf(shape, k), Arrays.copyOf(strides, k)));
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].reshape(Grads.inputShape(a, o))})
            .deriveJvp(Jvps::linear);

    /** {@code unsqueeze(self, dim)}: inserts a size-1 dim at {@code dim} (in [-dim()-1, dim()]). */
    public static final OpDef UNSQUEEZE = OpDef.view("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", args -> {
                Tensor t = self(args);
                int d = dim(args[1], t.dim() + 1);
                long stride =
                        d >= t.dim() ? 1 : t.impl().shapeRef()[d] * t.impl().strideRef()[d];
                return Tensor.viewOf(
                        t,
                        t.impl()
                                .viewOf(
                                        t.storageOffset(),
                                        insert(t.impl().shapeRef(), d, 1),
                                        insert(t.impl().strideRef(), d, stride)));
            })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].reshape(Grads.inputShape(a, o))})
            .deriveJvp(Jvps::linear);

    /** {@code flatten(self, start_dim, end_dim)}: merges dims start..end; a 0-d tensor becomes 1-d. */
    public static final OpDef FLATTEN = OpDef.composite(
            "flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", args -> {
                Tensor t = self(args);
                int start = dim(args[1], t.dim()), end = dim(args[2], t.dim());
                if (start > end)
                    throw new TorchException("flatten() has invalid args: start_dim cannot come after end_dim");
                if (t.dim() == 0) return RESHAPE.call1(t, new long[] {1});
                if (start == end) return t;
                // The merged size is computed, not inferred with -1: for [0, 1, 3, 0] a -1 could take any value.
                long merged = Shapes.numel(Arrays.copyOfRange(t.impl().shapeRef(), start, end + 1));
                long[] shape = new long[t.dim() - (end - start)];
                System.arraycopy(t.impl().shapeRef(), 0, shape, 0, start);
                shape[start] = merged;
                System.arraycopy(t.impl().shapeRef(), end + 1, shape, start + 1, t.dim() - end - 1);
                return RESHAPE.call1(t, shape);
            });

    /** {@code unflatten(self, dim, sizes)}: splits one dim into {@code sizes} (one may be -1). */
    public static final OpDef UNFLATTEN =
            OpDef.composite("unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)", args -> {
                Tensor t = self(args);
                int d = dim(args[1], t.dim());
                long[] sizes = (long[]) args[2];
                if (sizes.length == 0) throw new TorchException("unflatten: sizes must be non-empty");
                if (t.dim() == 0)
                    throw new IndexOutOfBoundsException(
                            "Dimension specified as " + d + " but tensor has no dimensions");
                long size = t.impl().shapeRef()[d];
                long[] inferred;
                try {
                    inferred = inferSize(sizes, size);
                } catch (TorchException e) {
                    if (e.getMessage().startsWith("shape '")) {
                        throw new TorchException("unflatten: Provided sizes " + Shapes.str(sizes)
                                + " don't multiply up to the size of dim " + d + " (" + size + ") in the input tensor");
                    }
                    throw new TorchException("unflatten got an unexpected error:\n" + e.getMessage(), e);
                }
                long[] shape = new long[t.dim() - 1 + inferred.length];
                System.arraycopy(t.impl().shapeRef(), 0, shape, 0, d);
                System.arraycopy(inferred, 0, shape, d, inferred.length);
                System.arraycopy(t.impl().shapeRef(), d + 1, shape, d + inferred.length, t.dim() - d - 1);
                return VIEW.call1(t, shape);
            });

    /**
     * {@code slice(self, dim, start, end, step)}: Python's {@code t[..., start:end:step]} along {@code dim}, bounds
     * clamped.
     */
    public static final OpDef SLICE = OpDef.view(
                    "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
                            + "SymInt step=1) -> Tensor(a)",
                    args -> {
                        Tensor t = self(args);
                        if (t.dim() == 0)
                            throw new IndexOutOfBoundsException("slice() cannot be applied to a 0-dim tensor.");
                        int d = dim(args[1], t.dim());
                        long step = lng(args[4]);
                        if (step <= 0) throw new TorchException("slice step must be positive");
                        long size = t.impl().shapeRef()[d];
                        long start = sliceStart(size, args[2] == null ? 0 : lng(args[2]));
                        long end = args[3] == null ? Long.MAX_VALUE : lng(args[3]);
                        long[] shape = t.shape(), strides = t.stride();
                        shape[d] = slicedLength(size, start, end, step);
                        strides[d] = sliceStride(strides[d], step, shape[d]);
                        long offset = t.storageOffset() + start * t.impl().strideRef()[d];
                        return Tensor.viewOf(t, t.impl().viewOf(offset, shape, strides));
                    })
            // slice_backward's start and end are not optional: an open end is PyTorch's INT64_MAX, which slice clamps
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {
                BackwardOps.sliceBackward(
                        g[0],
                        Grads.inputShape(a, o),
                        (Long) a[1],
                        a[2] == null ? 0 : (Long) a[2],
                        a[3] == null ? Long.MAX_VALUE : (Long) a[3],
                        (Long) a[4])
            })
            .deriveJvp(Jvps::linear);

    /**
     * {@code narrow(self, dim, start, length)}: {@code slice(dim, start, start + length)}; {@code start} may be
     * negative.
     */
    public static final OpDef NARROW =
            OpDef.composite("narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)", args -> {
                Tensor t = self(args);
                if (t.dim() == 0) throw new TorchException("narrow() cannot be applied to a 0-dim tensor.");
                long length = lng(args[3]);
                if (length < 0) throw new TorchException("narrow(): length must be non-negative.");
                long size = t.impl().shapeRef()[dim(args[1], t.dim())];
                long start = lng(args[2]);
                if (start < -size || start > size) {
                    throw new IndexOutOfBoundsException("start out of range (expected to be in range of [" + (-size)
                            + ", " + size + "], but got " + start + ")");
                }
                if (start < 0) start += size;
                if (start > size - length) {
                    throw new TorchException(
                            "start (" + start + ") + length (" + length + ") exceeds dimension size (" + size + ").");
                }
                return SLICE.call1(t, args[1], start, start + length, 1L);
            });

    /** Where a slice of a dim of {@code size} starts: a negative start counts from the end, then it is clamped. */
    static long sliceStart(long size, long start) {
        return Math.clamp(start < 0 ? start + size : start, 0, size);
    }

    /**
     * The length of {@code [start:end:step]} over a dim of {@code size}, bounds clamped as Python's slices are;
     * {@code start} as {@link #sliceStart} gives it.
     */
    static long slicedLength(long size, long start, long end, long step) {
        end = Math.clamp(end < 0 ? end + size : end, start, size);
        // (end - start + step - 1) / step would wrap for a step near 2^63 and give an empty slice
        long span = end - start;
        return span / step + (span % step == 0 ? 0 : 1);
    }

    /**
     * The stride of a sliced dim: {@code stride · step}. A step so large that the product overflows leaves at most one
     * element, whose address the stride never enters, so the dim keeps its stride rather than a wrapped one.
     */
    private static long sliceStride(long stride, long step, long size) {
        long product = stride * step;
        return size <= 1 && Math.multiplyHigh(stride, step) != (product >> 63) ? stride : product;
    }

    /** {@code index} of dim {@code d} of {@code shape}, a negative one counted from the end; refused when outside. */
    static long selectIndex(long[] shape, int d, long index) {
        long size = shape[d];
        if (index < -size || index >= size) {
            throw new IndexOutOfBoundsException("select(): index " + index + " out of range for tensor of size "
                    + Shapes.str(shape) + " at dimension " + d);
        }
        return index < 0 ? index + size : index;
    }

    /** {@code select(self, dim, index)}: the slice at {@code index} along {@code dim}, which is removed. */
    public static final OpDef SELECT = OpDef.view(
                    "select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)", args -> {
                        Tensor t = self(args);
                        if (t.dim() == 0)
                            throw new IndexOutOfBoundsException("select() cannot be applied to a 0-dim tensor.");
                        int d = dim(args[1], t.dim());
                        long index = selectIndex(t.impl().shapeRef(), d, lng(args[2]));
                        return Tensor.viewOf(
                                t,
                                t.impl()
                                        .viewOf(
                                                t.storageOffset()
                                                        + index * t.impl().strideRef()[d],
                                                remove(t.impl().shapeRef(), d),
                                                remove(t.impl().strideRef(), d)));
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {BackwardOps.selectBackward(g[0], Grads.inputShape(a, o), (Long) a[1], (Long) a[2])})
            .deriveJvp(Jvps::linear);

    /** Sizes of {@code split(split_size)}: equal pieces, the last one possibly smaller. */
    private static long[] splitSizes(Tensor t, long splitSize, int d) {
        if (splitSize < 0)
            throw new TorchException("split expects split_size be non-negative, but got split_size=" + splitSize);
        long dimSize = t.impl().shapeRef()[d];
        if (splitSize == 0 && dimSize != 0) {
            throw new TorchException(
                    "split_size can only be 0 if dimension size is 0, but got dimension size of " + dimSize);
        }
        // A split size larger than the dim still gives one piece (PyTorch keeps this for compatibility).
        long pieces = splitSize == 0 ? 1 : Math.max((dimSize + splitSize - 1) / splitSize, 1);
        long[] sizes = new long[Math.toIntExact(pieces)];
        Arrays.fill(sizes, splitSize);
        sizes[sizes.length - 1] = splitSize - (splitSize * pieces - dimSize);
        return sizes;
    }

    private static Tensor[] splitWithSizes(Tensor t, long[] sizes, int d) {
        Tensor[] out = new Tensor[sizes.length];
        long start = 0;
        for (int i = 0; i < sizes.length; i++) {
            if (sizes[i] < 0) {
                throw new TorchException(
                        "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes="
                                + Shapes.str(sizes));
            }
            out[i] = SLICE.call1(t, (long) d, start, start + sizes[i], 1L);
            start += sizes[i];
        }
        if (start != t.impl().shapeRef()[d]) {
            throw new TorchException("split_with_sizes expects split_sizes to sum exactly to "
                    + t.impl().shapeRef()[d] + " (input tensor's size at dimension " + d + "), but got split_sizes="
                    + Shapes.str(sizes));
        }
        return out;
    }

    private static int splitDim(Tensor t, Object dim) {
        if (t.dim() == 0) throw new TorchException("split expects at least a 1-dimensional tensor");
        return dim(dim, t.dim());
    }

    /** {@code split(self, split_size, dim)}: views of {@code split_size} along {@code dim}; the last may be smaller. */
    public static final OpDef SPLIT = OpDef.composite(
                    "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]", args -> {
                        Tensor t = self(args);
                        int d = splitDim(t, args[2]);
                        return refuseWrites(t, splitWithSizes(t, splitSizes(t, lng(args[1]), d), d), "Split");
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> joinedGradient(a, g, a[2]));

    /** {@code split_with_sizes(self, split_sizes, dim)}: views of the given sizes, which must sum to the dim's size. */
    public static final OpDef SPLIT_WITH_SIZES = OpDef.composite(
                    "split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]", args -> {
                        Tensor t = self(args);
                        return refuseWrites(
                                t, splitWithSizes(t, (long[]) args[1], splitDim(t, args[2])), "SplitWithSizes");
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> joinedGradient(a, g, a[2]));

    /**
     * {@code chunk(self, chunks, dim)}: at most {@code chunks} views of size ceil(n / chunks), through {@code split}
     * (or {@code split_with_sizes} for an empty dim), as PyTorch's composite: autograd records that op.
     */
    public static final OpDef CHUNK =
            OpDef.composite("chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]", args -> {
                Tensor t = self(args);
                if (t.dim() == 0) throw new TorchException("chunk expects at least a 1-dimensional tensor");
                long chunks = lng(args[1]);
                if (chunks <= 0)
                    throw new TorchException("chunk expects `chunks` to be greater than 0, got: " + chunks);
                int d = dim(args[2], t.dim());
                long dimSize = t.impl().shapeRef()[d];
                long splitSize = (dimSize + chunks - 1) / chunks;
                if (splitSize == 0 && dimSize == 0) {
                    // An empty dim still gives `chunks` (empty) pieces.
                    return SPLIT_WITH_SIZES.call(t, new long[Math.toIntExact(chunks)], (long) d);
                }
                return SPLIT.call(t, splitSize, (long) d);
            });

    /**
     * The gradient of {@code split} and {@code split_with_sizes} when autograd records them whole: the pieces'
     * gradients (zeros where none arrived) joined back along {@code dim}, one {@code cat} as PyTorch's
     * {@code split_with_sizes_backward}.
     */
    private static Tensor[] joinedGradient(Object[] a, Tensor[] g, Object dim) {
        return new Tensor[] {JoinOps.CAT.call1(g, (long) dim(dim, ((Tensor) a[0]).dim()))};
    }

    /**
     * The views of an op that returns several ({@code unbind}, {@code split}), marked as PyTorch marks them when they
     * are recorded: writing into one in place while grad mode is on raises, since the op's single backward would not
     * see the write.
     */
    private static Tensor[] refuseWrites(Tensor self, Tensor[] views, String op) {
        if (!self.requiresGrad() || !DispatchState.current().isGradEnabled()) return views;
        for (int i = 0; i < views.length; i++) {
            views[i].refuseViewWrites("Output " + i + " of " + op + " is a view and is being modified inplace. This "
                    + "view is the output of a function that returns multiple views. Such functions do not allow the "
                    + "output views to be modified inplace. You should replace the inplace operation by an "
                    + "out-of-place one.");
        }
        return views;
    }

    /** {@code unbind(self, dim)}: every slice along {@code dim}, with that dim removed. */
    public static final OpDef UNBIND = OpDef.composite(
                    "unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]", args -> {
                        Tensor t = self(args);
                        int d = dim(args[1], t.dim());
                        if (t.dim() == 0)
                            throw new IndexOutOfBoundsException(
                                    "Dimension specified as " + d + " but tensor has no dimensions");
                        Tensor[] out = new Tensor[Math.toIntExact(t.impl().shapeRef()[d])];
                        for (int i = 0; i < out.length; i++) out[i] = SELECT.call1(t, (long) d, (long) i);
                        return refuseWrites(t, out, "Unbind");
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {JoinOps.STACK.call1(g, (long) dim(a[1], ((Tensor) a[0]).dim()))});

    /**
     * {@code diagonal(self, offset, dim1, dim2)}: the diagonal of the (dim1, dim2) planes as a new last dim; a positive
     * offset is above the main diagonal.
     */
    public static final OpDef DIAGONAL = OpDef.view(
                    "diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)", args -> {
                        Tensor t = self(args);
                        long offset = lng(args[1]);
                        int d1 = dim(args[2], t.dim()), d2 = dim(args[3], t.dim());
                        if (d1 == d2)
                            throw new TorchException(
                                    "diagonal dimensions cannot be identical " + lng(args[2]) + ", " + lng(args[3]));
                        long[] sz = t.impl().shapeRef(), st = t.impl().strideRef();
                        long diagSize = offset >= 0
                                ? Math.max(Math.min(sz[d1], sz[d2] - offset), 0)
                                : Math.max(Math.min(sz[d1] + offset, sz[d2]), 0);
                        long storageOffset = t.storageOffset();
                        // An empty diagonal keeps the offset, so an offset "off the end" cannot move it out of the
                        // storage.
                        if (diagSize > 0) storageOffset += offset >= 0 ? offset * st[d2] : -offset * st[d1];
                        long[] shape = remove(remove(sz, Math.max(d1, d2)), Math.min(d1, d2));
                        long[] strides = remove(remove(st, Math.max(d1, d2)), Math.min(d1, d2));
                        shape = insert(shape, shape.length, diagSize);
                        strides = insert(strides, strides.length, st[d1] + st[d2]);
                        return Tensor.viewOf(t, t.impl().viewOf(storageOffset, shape, strides));
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {
                BackwardOps.diagonalBackward(g[0], Grads.inputShape(a, o), lng(a[1]), lng(a[2]), lng(a[3]))
            })
            .deriveJvp(Jvps::linear);

    /** {@code movedim(self, source, destination)}: moves dims to new positions, keeping the others in order. */
    public static final OpDef MOVEDIM =
            OpDef.composite("movedim.intlist(Tensor(a) self, int[] source, int[] destination) -> Tensor(a)", args -> {
                Tensor t = self(args);
                long[] src = (long[]) args[1], dst = (long[]) args[2];
                int n = t.dim();
                if (src.length != dst.length) {
                    throw new TorchException("movedim: Invalid source or destination dims: source (" + Shapes.str(src)
                            + " dims) should contain the same number of dims as destination (" + Shapes.str(dst)
                            + " dims)");
                }
                int[] s = wrapUnique(src, n, "source"), d = wrapUnique(dst, n, "destination");
                if (n == 0) return PERMUTE.call1(t, new long[0]);
                long[] order = new long[n];
                Arrays.fill(order, -1);
                boolean[] srcUsed = new boolean[Math.max(n, 1)], dstUsed = new boolean[Math.max(n, 1)];
                for (int i = 0; i < s.length; i++) {
                    order[d[i]] = s[i];
                    srcUsed[s[i]] = true;
                    dstUsed[d[i]] = true;
                }
                // The remaining dims fill the remaining places in their original order.
                int nextSrc = 0;
                for (int pos = 0; pos < n; pos++) {
                    if (dstUsed[pos]) continue;
                    while (srcUsed[nextSrc]) nextSrc++;
                    order[pos] = nextSrc++;
                }
                return PERMUTE.call1(t, order);
            });

    private static int[] wrapUnique(long[] dims, int rank, String what) {
        int[] out = new int[dims.length];
        boolean[] seen = new boolean[Math.max(rank, 1)];
        for (int i = 0; i < dims.length; i++) {
            out[i] = Shapes.wrapDim(dims[i], rank);
            if (seen[out[i]])
                throw new TorchException("movedim: repeated dim in `" + what + "` (" + Shapes.str(dims) + ")");
            seen[out[i]] = true;
        }
        return out;
    }

    /** {@code as_strided(self, size, stride, storage_offset)}: any geometry inside the storage (bounds are checked). */
    public static final OpDef AS_STRIDED = OpDef.view(
                    "as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, "
                            + "SymInt? storage_offset=None) -> Tensor(a)",
                    args -> {
                        Tensor t = self(args);
                        long offset = args[3] == null ? t.storageOffset() : lng(args[3]);
                        long[] shape = ((long[]) args[1]).clone(), strides = ((long[]) args[2]).clone();
                        Shapes.checkSizes("as_strided", shape);
                        return Tensor.of(TensorImpl.of(t.impl().storage(), offset, shape, strides, t.dtype()));
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {asStridedBackward(g[0], (Tensor) a[0], a)})
            .deriveJvp(Jvps::linear);

    /**
     * ATen's {@code as_strided_backward} in storage terms: the output gradient is summed into the storage positions the
     * output reads (overlapping outputs add up) and read back through the input's geometry. When the input's own
     * elements overlap (an expanded input), each position's sum is shared evenly among the input elements there. The
     * geometry is the input's at the call, so the rule saves it.
     */
    private static Tensor asStridedBackward(Tensor g, Tensor input, Object[] args) {
        long[] size = (long[]) args[1], stride = (long[]) args[2];
        long offset = args[3] == null ? input.storageOffset() : lng(args[3]);
        long[] inSize = input.shape(), inStride = input.stride();
        long inOffset = input.storageOffset();
        Tensor grad = BackwardOps.asStridedTransfer(g, size, stride, offset, inSize, inStride, inOffset);
        if (!mayOverlap(inSize, inStride)) return grad;
        Tensor count = BackwardOps.asStridedTransfer(
                Creation.onesLike(input.detach()), inSize, inStride, inOffset, inSize, inStride, inOffset);
        return grad.div(count);
    }

    /** Whether a geometry may map two elements to one position (ATen's {@code _maybe_overlapping_memory} test). */
    private static boolean mayOverlap(long[] size, long[] stride) {
        Integer[] order = new Integer[size.length];
        int n = 0;
        for (int d = 0; d < size.length; d++) {
            if (size[d] == 0) return false;
            if (size[d] > 1) order[n++] = d;
        }
        Integer[] dims = Arrays.copyOf(order, n);
        Arrays.sort(dims, (x, y) -> Long.compare(Math.abs(stride[x]), Math.abs(stride[y])));
        long reach = 0; // the furthest position reachable with the dims of smaller stride
        for (int d : dims) {
            long st = Math.abs(stride[d]);
            if (st <= reach) return true;
            reach += st * (size[d] - 1);
        }
        return false;
    }

    // ---- entry points (Torch and Tensor delegate here) ----------------------------------------------

    private static long[] longs(int[] a) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i];
        return r;
    }

    private static List<Tensor> list(Object tensors) {
        return List.of((Tensor[]) tensors);
    }

    /** {@code self.view(*size)}. */
    public static Tensor view(Tensor self, long... size) {
        return VIEW.call1(self, size.clone());
    }

    /** {@code torch.reshape(self, shape)}. */
    public static Tensor reshape(Tensor self, long... shape) {
        return RESHAPE.call1(self, shape.clone());
    }

    /** {@code torch.permute(self, dims)}. */
    public static Tensor permute(Tensor self, int... dims) {
        return PERMUTE.call1(self, longs(dims));
    }

    /** {@code torch.transpose(self, dim0, dim1)}. */
    public static Tensor transpose(Tensor self, int dim0, int dim1) {
        return TRANSPOSE.call1(self, (long) dim0, (long) dim1);
    }

    /** {@code torch.swapaxes(self, axis0, axis1)}: alias of {@code transpose}. */
    public static Tensor swapaxes(Tensor self, int axis0, int axis1) {
        return transpose(self, axis0, axis1);
    }

    /** {@code torch.t(self)}. */
    public static Tensor t(Tensor self) {
        return T.call1(self);
    }

    /** {@code self.mT}. */
    public static Tensor mT(Tensor self) {
        return MT.call1(self);
    }

    /** {@code self.expand(*size)}. */
    public static Tensor expand(Tensor self, long... size) {
        return EXPAND.call1(self, size.clone(), false);
    }

    /** {@code torch.broadcast_to(self, size)}. */
    public static Tensor broadcastTo(Tensor self, long... size) {
        return BROADCAST_TO.call1(self, size.clone());
    }

    /** {@code torch.squeeze(self)}: removes every size-1 dim. */
    public static Tensor squeeze(Tensor self) {
        return SQUEEZE.call1(self, null);
    }

    /** {@code torch.squeeze(self, dim)}: removes {@code dim} if it has size 1. */
    public static Tensor squeeze(Tensor self, int dim) {
        return SQUEEZE.call1(self, new long[] {dim});
    }

    /** {@code torch.squeeze(self, dims)}: removes those of {@code dims} that have size 1. */
    public static Tensor squeeze(Tensor self, int... dims) {
        return SQUEEZE.call1(self, longs(dims));
    }

    /** {@code torch.unsqueeze(self, dim)}. */
    public static Tensor unsqueeze(Tensor self, int dim) {
        return UNSQUEEZE.call1(self, (long) dim);
    }

    /** {@code torch.flatten(self)}. */
    public static Tensor flatten(Tensor self) {
        return flatten(self, 0, -1);
    }

    /** {@code torch.flatten(self, start_dim)}. */
    public static Tensor flatten(Tensor self, int startDim) {
        return flatten(self, startDim, -1);
    }

    /** {@code torch.flatten(self, start_dim, end_dim)}. */
    public static Tensor flatten(Tensor self, int startDim, int endDim) {
        return FLATTEN.call1(self, (long) startDim, (long) endDim);
    }

    /** {@code torch.unflatten(self, dim, sizes)}. */
    public static Tensor unflatten(Tensor self, int dim, long... sizes) {
        return UNFLATTEN.call1(self, (long) dim, sizes.clone());
    }

    /** {@code torch.narrow(self, dim, start, length)}. */
    public static Tensor narrow(Tensor self, int dim, long start, long length) {
        return NARROW.call1(self, (long) dim, start, length);
    }

    /** {@code torch.select(self, dim, index)}. */
    public static Tensor select(Tensor self, int dim, long index) {
        return SELECT.call1(self, (long) dim, index);
    }

    /** {@code self[..., start:end:step]} along {@code dim} ({@code aten::slice}); {@code null} bounds are open. */
    public static Tensor slice(Tensor self, int dim, Long start, Long end, long step) {
        return SLICE.call1(self, (long) dim, start, end, step);
    }

    /** {@code self[..., start:end]} along {@code dim}. */
    public static Tensor slice(Tensor self, int dim, long start, long end) {
        return slice(self, dim, start, end, 1);
    }

    /** {@code torch.chunk(self, chunks)}. */
    public static List<Tensor> chunk(Tensor self, int chunks) {
        return chunk(self, chunks, 0);
    }

    /** {@code torch.chunk(self, chunks, dim)}. */
    public static List<Tensor> chunk(Tensor self, int chunks, int dim) {
        return list(Dispatcher.call(CHUNK, self, (long) chunks, (long) dim));
    }

    /** {@code torch.split(self, split_size)}. */
    public static List<Tensor> split(Tensor self, long splitSize) {
        return split(self, splitSize, 0);
    }

    /** {@code torch.split(self, split_size, dim)}. */
    public static List<Tensor> split(Tensor self, long splitSize, int dim) {
        return list(Dispatcher.call(SPLIT, self, splitSize, (long) dim));
    }

    /** {@code torch.split(self, [sizes...])}. */
    public static List<Tensor> split(Tensor self, long[] splitSizes) {
        return split(self, splitSizes, 0);
    }

    /** {@code torch.split(self, [sizes...], dim)}. */
    public static List<Tensor> split(Tensor self, long[] splitSizes, int dim) {
        return list(Dispatcher.call(SPLIT_WITH_SIZES, self, splitSizes.clone(), (long) dim));
    }

    /** {@code torch.unbind(self)}. */
    public static List<Tensor> unbind(Tensor self) {
        return unbind(self, 0);
    }

    /** {@code torch.unbind(self, dim)}. */
    public static List<Tensor> unbind(Tensor self, int dim) {
        return list(Dispatcher.call(UNBIND, self, (long) dim));
    }

    /** {@code torch.diagonal(self)}. */
    public static Tensor diagonal(Tensor self) {
        return diagonal(self, 0, 0, 1);
    }

    /** {@code torch.diagonal(self, offset)}. */
    public static Tensor diagonal(Tensor self, long offset) {
        return diagonal(self, offset, 0, 1);
    }

    /** {@code torch.diagonal(self, offset, dim1, dim2)}. */
    public static Tensor diagonal(Tensor self, long offset, int dim1, int dim2) {
        return DIAGONAL.call1(self, offset, (long) dim1, (long) dim2);
    }

    /** {@code torch.movedim(self, source, destination)}. */
    public static Tensor movedim(Tensor self, int source, int destination) {
        return movedim(self, new int[] {source}, new int[] {destination});
    }

    /** {@code torch.movedim(self, source, destination)} for several dims. */
    public static Tensor movedim(Tensor self, int[] source, int[] destination) {
        return MOVEDIM.call1(self, longs(source), longs(destination));
    }

    /** {@code torch.as_strided(self, size, stride)}: keeps the storage offset. */
    public static Tensor asStrided(Tensor self, long[] size, long[] stride) {
        return AS_STRIDED.call1(self, size, stride, null);
    }

    /** {@code torch.as_strided(self, size, stride, storage_offset)}. */
    public static Tensor asStrided(Tensor self, long[] size, long[] stride, long storageOffset) {
        return AS_STRIDED.call1(self, size, stride, storageOffset);
    }
}
