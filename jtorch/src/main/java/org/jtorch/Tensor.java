package org.jtorch;

import java.lang.foreign.MemorySegment;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.Storage;

/**
 * A strided view of a {@link Storage}: (storage, offset, sizes, strides, dtype) plus the autograd
 * fields. Views share storage; sizes, strides and offsets are in elements and always {@code long}.
 *
 * <p>Methods mirror {@code torch.Tensor}: {@code x.add(y)}, in-place {@code x.add_(y)}. Every op runs
 * through the dispatcher; this class holds no op logic.
 */
public final class Tensor {
    private final Storage storage;
    private final long offset;
    private final long[] shape;
    private final long[] strides;
    private final DType dtype;
    private final long numel;
    private final boolean contiguous;
    private boolean requiresGrad;
    private Tensor grad;

    private Tensor(Storage storage, long offset, long[] shape, long[] strides, DType dtype) {
        this.storage = storage;
        this.offset = offset;
        this.shape = shape;
        this.strides = strides;
        this.dtype = dtype;
        this.numel = Shapes.numel(shape);
        this.contiguous = Shapes.isContiguous(shape, strides);
    }

    /**
     * A tensor over existing storage. Checks that every element lies inside the storage, so no later
     * read can go out of bounds. The arrays are owned by the tensor afterwards: do not modify them.
     */
    public static Tensor of(Storage storage, long offset, long[] shape, long[] strides, DType dtype) {
        if (shape.length != strides.length) {
            throw new TorchException("as_strided: mismatch in length of strides and shape");
        }
        if (storage.kind() != dtype.storageKind()) {
            throw new TorchException("as_strided: storage of kind " + storage.kind() + " cannot hold " + dtype);
        }
        if (offset < 0) throw new TorchException("as_strided: Tensor: invalid storage offset " + offset);
        long maxIndex = offset, numel = Shapes.numel(shape);
        if (numel > 0) {
            for (int i = 0; i < shape.length; i++) {
                if (strides[i] < 0) throw new TorchException("as_strided: Negative strides are not supported at the moment, got strides: " + Shapes.str(strides));
                maxIndex += (shape[i] - 1) * strides[i];
            }
            long needed = (maxIndex + 1) * dtype.slotsPerElement();
            if (needed > storage.slots()) {
                throw new TorchException("setStorage: sizes " + Shapes.str(shape) + ", strides " + Shapes.str(strides)
                        + ", storage offset " + offset + " require " + needed * Storage.slotBytes(storage.kind())
                        + " bytes but the storage has only " + storage.byteSize() + " bytes");
            }
        }
        return new Tensor(storage, offset, shape, strides, dtype);
    }

    /** A view of the same storage with new geometry; callers have already validated it. */
    public Tensor viewOf(long newOffset, long[] newShape, long[] newStrides) {
        Tensor t = new Tensor(storage, newOffset, newShape, newStrides, dtype);
        return t;
    }

    /** A fresh zero-filled (CPU) or data-less (meta) contiguous tensor. */
    public static Tensor empty(long[] shape, DType dtype, Device device) {
        long n = Shapes.numel(shape);
        long slots = n * dtype.slotsPerElement();
        Storage s = device == Device.META ? Storage.meta(dtype.storageKind(), slots) : Storage.allocate(dtype.storageKind(), slots);
        return new Tensor(s, 0, shape, Shapes.contiguousStrides(shape), dtype);
    }

    // ---- geometry -------------------------------------------------------------------------------

    /** Sizes; the returned array is a copy. */
    public long[] shape() { return shape.clone(); }

    /** Sizes without copying, for internal code that promises not to modify them. */
    public long[] shapeRef() { return shape; }

    public long size(int dim) { return shape[Shapes.wrapDim(dim, shape.length)]; }

    /** Strides in elements; a copy. */
    public long[] stride() { return strides.clone(); }

    public long[] strideRef() { return strides; }

    public long stride(int dim) { return strides[Shapes.wrapDim(dim, shape.length)]; }

    public int dim() { return shape.length; }

    public int ndim() { return shape.length; }

    public long numel() { return numel; }

    public DType dtype() { return dtype; }

    public Device device() { return storage.device(); }

    public boolean isMeta() { return storage.isMeta(); }

    public boolean isContiguous() { return contiguous; }

    public long storageOffset() { return offset; }

    public boolean isComplex() { return dtype.isComplex(); }

    public boolean isFloatingPoint() { return dtype.isFloatingPoint(); }

    public long elementSize() { return dtype.itemSize(); }

    /** The storage; the same object for tensors that share memory ({@code untyped_storage()}). */
    public Object untypedStorage() { return storage; }

    public Storage storage() { return storage; }

    /** Version counter shared by all views (bumped by in-place ops). */
    public int version() { return storage.version(); }

    public void bumpVersion() { storage.bumpVersion(); }

    // ---- autograd fields ------------------------------------------------------------------------

    public boolean requiresGrad() { return requiresGrad; }

    /** {@code requires_grad_(flag)}: returns this. Only floating and complex tensors can require gradients. */
    public Tensor requiresGrad(boolean flag) {
        if (flag && !(dtype.isFloatingPoint() || dtype.isComplex())) {
            throw new TorchException("only Tensors of floating point and complex dtype can require gradients");
        }
        this.requiresGrad = flag;
        return this;
    }

    public Tensor grad() { return grad; }

    public void setGrad(Tensor g) { this.grad = g; }

    // ---- data access ----------------------------------------------------------------------------

    private MemorySegment data(String op) {
        if (storage.isMeta()) throw new TorchException(op + "(): Cannot access data of a tensor on the meta device");
        return storage.segment();
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

    /** The value of a one-element tensor ({@code item()}), converted to double (the real part for complex). */
    public double item() {
        if (numel != 1) {
            throw new TorchException("a Tensor with " + numel + " elements cannot be converted to Scalar");
        }
        return ElementIO.of(dtype).getDouble(data("item"), elementIndex(0));
    }

    /** {@code item()} for integer tensors, exact for all 64 bits. */
    public long longItem() {
        if (numel != 1) throw new TorchException("a Tensor with " + numel + " elements cannot be converted to Scalar");
        return ElementIO.of(dtype).getLong(data("item"), elementIndex(0));
    }

    /** All elements in row-major order, converted to double. Complex tensors give (re, im) pairs. */
    public double[] toDoubleArray() {
        MemorySegment s = data("toDoubleArray");
        ElementIO io = ElementIO.of(dtype);
        int n = Math.toIntExact(numel);
        if (dtype.isComplex()) {
            double[] out = new double[2 * n];
            for (int i = 0; i < n; i++) {
                long e = elementIndex(i);
                out[2 * i] = io.getDouble(s, e);
                out[2 * i + 1] = io.getImag(s, e);
            }
            return out;
        }
        double[] out = new double[n];
        for (int i = 0; i < n; i++) out[i] = io.getDouble(s, elementIndex(i));
        return out;
    }

    /** All elements in row-major order, converted to float. */
    public float[] toFloatArray() {
        double[] d = toDoubleArray();
        float[] f = new float[d.length];
        for (int i = 0; i < d.length; i++) f[i] = (float) d[i];
        return f;
    }

    /** All elements in row-major order, converted to long (floating values truncate toward zero). */
    public long[] toLongArray() {
        MemorySegment s = data("toLongArray");
        ElementIO io = ElementIO.of(dtype);
        int n = Math.toIntExact(numel);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = io.getLong(s, elementIndex(i));
        return out;
    }

    /** All elements as booleans (non-zero is true). */
    public boolean[] toBooleanArray() {
        double[] d = toDoubleArray();
        boolean[] b = new boolean[(int) numel];
        int step = dtype.isComplex() ? 2 : 1;
        for (int i = 0; i < b.length; i++) b[i] = d[step * i] != 0 || (step == 2 && d[2 * i + 1] != 0);
        return b;
    }

    // ---- ops (one-line delegations; the definitions live in org.jtorch.ops) -----------------------

    public Tensor to(DType dtype) { return org.jtorch.ops.CopyOps.to(this, dtype); }

    public Tensor clone() { return org.jtorch.ops.CopyOps.clone(this); }

    public Tensor contiguous() { return org.jtorch.ops.CopyOps.contiguous(this); }

    public Tensor copy_(Tensor src) { return org.jtorch.ops.CopyOps.copy_(this, src); }

    public Tensor add(Tensor o) { return Torch.add(this, o); }

    public Tensor add(Tensor o, double alpha) { return Torch.add(this, o, alpha); }

    public Tensor add(double s) { return Torch.add(this, s); }

    public Tensor add(long s) { return Torch.add(this, s); }

    public Tensor sub(Tensor o) { return Torch.sub(this, o); }

    public Tensor sub(Tensor o, double alpha) { return Torch.sub(this, o, alpha); }

    public Tensor sub(double s) { return Torch.sub(this, s); }

    public Tensor sub(long s) { return Torch.sub(this, s); }

    public Tensor mul(Tensor o) { return Torch.mul(this, o); }

    public Tensor mul(double s) { return Torch.mul(this, s); }

    public Tensor mul(long s) { return Torch.mul(this, s); }

    public Tensor div(Tensor o) { return Torch.div(this, o); }

    public Tensor div(double s) { return Torch.div(this, s); }

    public Tensor div(long s) { return Torch.div(this, s); }

    public Tensor div(Object o, RoundingMode mode) { return Torch.div(this, o, mode); }

    public Tensor remainder(Object o) { return Torch.remainder(this, o); }

    public Tensor fmod(Object o) { return Torch.fmod(this, o); }

    public Tensor pow(Tensor o) { return Torch.pow(this, o); }

    public Tensor pow(double e) { return Torch.pow(this, e); }

    public Tensor pow(long e) { return Torch.pow(this, e); }

    public Tensor maximum(Tensor o) { return Torch.maximum(this, o); }

    public Tensor minimum(Tensor o) { return Torch.minimum(this, o); }

    public Tensor eq(Object o) { return Torch.eq(this, o); }

    public Tensor ne(Object o) { return Torch.ne(this, o); }

    public Tensor lt(Object o) { return Torch.lt(this, o); }

    public Tensor le(Object o) { return Torch.le(this, o); }

    public Tensor gt(Object o) { return Torch.gt(this, o); }

    public Tensor ge(Object o) { return Torch.ge(this, o); }

    public Tensor logicalNot() { return Torch.logicalNot(this); }

    public Tensor neg() { return Torch.neg(this); }

    public Tensor abs() { return Torch.abs(this); }

    public Tensor sign() { return Torch.sign(this); }

    public Tensor reciprocal() { return Torch.reciprocal(this); }

    public Tensor square() { return Torch.square(this); }

    public Tensor exp() { return Torch.exp(this); }

    public Tensor log() { return Torch.log(this); }

    public Tensor sqrt() { return Torch.sqrt(this); }

    public Tensor rsqrt() { return Torch.rsqrt(this); }

    public Tensor sin() { return Torch.sin(this); }

    public Tensor cos() { return Torch.cos(this); }

    public Tensor tanh() { return Torch.tanh(this); }

    public Tensor sigmoid() { return Torch.sigmoid(this); }

    public Tensor relu() { return Torch.relu(this); }

    public Tensor floor() { return Torch.floor(this); }

    public Tensor ceil() { return Torch.ceil(this); }

    public Tensor round() { return Torch.round(this); }

    public Tensor isnan() { return Torch.isnan(this); }

    // in-place forms: the result is written into this tensor (its dtype must hold the result)

    public Tensor add_(Tensor o) { return Torch.addOut(this, this, o); }

    public Tensor sub_(Tensor o) { return Torch.subOut(this, this, o); }

    public Tensor mul_(Tensor o) { return Torch.mulOut(this, this, o); }

    public Tensor div_(Tensor o) { return Torch.divOut(this, this, o); }

    public Tensor add_(double s) { return Torch.out(this, org.jtorch.ops.PointwiseOps.ADD, this, s); }

    public Tensor mul_(double s) { return Torch.out(this, org.jtorch.ops.PointwiseOps.MUL, this, s); }

    public Tensor exp_() { return Torch.expOut(this, this); }

    @Override
    public String toString() { return org.jtorch.internal.TensorFormatter.format(this); }
}
