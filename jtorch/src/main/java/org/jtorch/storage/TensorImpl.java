package org.jtorch.storage;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * The data side of a tensor (PyTorch's {@code TensorImpl}): a strided window (offset, sizes, strides, in elements) onto
 * a {@link Storage}, with its dtype. Kernels read and write tensors through this class only; the user-facing
 * {@code org.jtorch.Tensor} holds one and adds the autograd state, which is why nothing here knows about
 * {@code Tensor}.
 *
 * <p>An impl is immutable. The arrays of {@link #shapeRef()} and {@link #strideRef()} are the impl's own, handed out
 * without a copy because loops read them on every op: callers must never modify them, and arrays passed to the
 * factories belong to the impl afterwards.
 */
public final class TensorImpl {
    private final Storage storage;
    private final long offset;
    private final long[] shape;
    private final long[] strides;
    private final DType dtype;
    private final long numel;
    private final boolean contiguous;

    private TensorImpl(Storage storage, long offset, long[] shape, long[] strides, DType dtype) {
        this.storage = storage;
        this.offset = offset;
        this.shape = shape;
        this.strides = strides;
        this.dtype = dtype;
        this.numel = Shapes.numel(shape);
        this.contiguous = Shapes.isContiguous(shape, strides);
    }

    /**
     * A window onto existing storage. Checks that every element lies inside the storage, so no later read can go out of
     * bounds.
     */
    public static TensorImpl of(Storage storage, long offset, long[] shape, long[] strides, DType dtype) {
        if (shape.length != strides.length) {
            throw new TorchException("as_strided: mismatch in length of strides and shape");
        }
        if (storage.kind() != dtype.storageKind()) {
            throw new TorchException("as_strided: storage of kind " + storage.kind() + " cannot hold " + dtype);
        }
        if (offset < 0) throw new TorchException("as_strided: Tensor: invalid storage offset " + offset);
        if (Shapes.numel(shape) > 0) {
            for (long s : strides) {
                if (s < 0) {
                    throw new TorchException("as_strided: Negative strides are not supported at the moment, "
                            + "got strides: " + Shapes.str(strides));
                }
            }
            long needed =
                    neededBytes(offset, shape, strides, dtype.slotsPerElement() * Storage.slotBytes(storage.kind()));
            if (needed > storage.byteSize()) {
                throw new TorchException("setStorage: sizes " + Shapes.str(shape) + ", strides " + Shapes.str(strides)
                        + ", storage offset " + offset + " require " + needed
                        + " bytes but the storage has only " + storage.byteSize() + " bytes");
            }
        }
        return new TensorImpl(storage, offset, shape, strides, dtype);
    }

    /**
     * The bytes a non-empty strided tensor spans, {@code (offset + Σ (size_i − 1)·stride_i + 1)·itemBytes}, PyTorch's
     * {@code computeStorageNbytes}. Exact arithmetic: a wrapped sum would let a huge stride pass the bounds check and
     * alias every row onto the first.
     */
    private static long neededBytes(long offset, long[] shape, long[] strides, long itemBytes) {
        try {
            long last = offset;
            for (int i = 0; i < shape.length; i++)
                last = Math.addExact(last, Math.multiplyExact(shape[i] - 1, strides[i]));
            return Math.multiplyExact(Math.addExact(last, 1), itemBytes);
        } catch (ArithmeticException e) {
            throw new TorchException("as_strided: Storage size calculation overflowed with sizes=" + Shapes.str(shape)
                    + " and strides=" + Shapes.str(strides) + (offset == 0 ? "" : " and storage offset " + offset));
        }
    }

    /** A fresh contiguous impl over zero-filled CPU heap memory. */
    public static TensorImpl empty(long[] shape, DType dtype) {
        return contiguous(Storage.allocate(dtype.storageKind(), slots(shape, dtype)), shape, dtype);
    }

    /**
     * A fresh contiguous impl over CPU heap memory whose contents are unspecified
     * ({@link Storage#allocateUninitialized}): for an output that its kernel writes in full.
     */
    public static TensorImpl emptyUninitialized(long[] shape, DType dtype) {
        return contiguous(Storage.allocateUninitialized(dtype.storageKind(), slots(shape, dtype)), shape, dtype);
    }

    /** A fresh contiguous impl on the meta device: sizes and dtype, no data. */
    public static TensorImpl meta(long[] shape, DType dtype) {
        return contiguous(Storage.meta(dtype.storageKind(), slots(shape, dtype)), shape, dtype);
    }

    /** A fresh contiguous fake impl ({@link Storage#fake}): sizes, dtype and a claimed device, no data. */
    public static TensorImpl fake(long[] shape, DType dtype, Device device) {
        return contiguous(Storage.fake(device, dtype.storageKind(), slots(shape, dtype)), shape, dtype);
    }

    /**
     * A contiguous impl at offset 0 of a storage made for it: one a device backend allocated with {@link #slots} slots,
     * or, for a wrapper that owns no data, an empty one.
     */
    public static TensorImpl contiguous(Storage storage, long[] shape, DType dtype) {
        return new TensorImpl(storage, 0, shape, Shapes.contiguousStrides(shape), dtype);
    }

    /** The storage slots a contiguous tensor of these sizes and dtype takes (a complex element takes two). */
    public static long slots(long[] shape, DType dtype) {
        return Shapes.numel(shape) * dtype.slotsPerElement();
    }

    /** The same storage and dtype with new geometry; callers have already validated it. */
    public TensorImpl viewOf(long newOffset, long[] newShape, long[] newStrides) {
        return new TensorImpl(storage, newOffset, newShape, newStrides, dtype);
    }

    // ---- geometry -------------------------------------------------------------------------------

    /** Sizes, the live array: read only. */
    public long[] shapeRef() {
        return shape;
    }

    /** Strides in elements, the live array: read only. */
    public long[] strideRef() {
        return strides;
    }

    /** Size of dimension {@code dim}; negative dims count from the end. */
    public long size(int dim) {
        return shape[Shapes.wrapDim(dim, shape.length)];
    }

    /** Stride of dimension {@code dim}; negative dims count from the end. */
    public long stride(int dim) {
        return strides[Shapes.wrapDim(dim, shape.length)];
    }

    public int dim() {
        return shape.length;
    }

    public long numel() {
        return numel;
    }

    public DType dtype() {
        return dtype;
    }

    public boolean isContiguous() {
        return contiguous;
    }

    public long storageOffset() {
        return offset;
    }

    /** Storage index of the element with row-major linear index {@code linear}. */
    public long elementIndex(long linear) {
        if (contiguous) return offset + linear;
        long idx = offset;
        for (int d = shape.length - 1; d >= 0; d--) {
            long s = shape[d];
            idx += (linear % s) * strides[d];
            linear /= s;
        }
        return idx;
    }

    // ---- data -----------------------------------------------------------------------------------

    /** The storage; the same object for every view of it. */
    public Storage storage() {
        return storage;
    }

    public Device device() {
        return storage.device();
    }

    public boolean isMeta() {
        return storage.isMeta();
    }

    /** Whether the storage holds data: false on the meta device and for fake tensors, whose ops run meta rules only. */
    public boolean hasData() {
        return !storage.isMeta() && !storage.isFake();
    }

    /** Whether this is a fake tensor's impl: no data, on whatever device its storage claims. */
    public boolean isFake() {
        return storage.isFake();
    }

    /** The version counter, shared by every view of the storage. */
    public int version() {
        return storage.version();
    }

    /** Marks an in-place write, so autograd can detect stale saved tensors. */
    public void bumpVersion() {
        storage.bumpVersion();
    }
}
