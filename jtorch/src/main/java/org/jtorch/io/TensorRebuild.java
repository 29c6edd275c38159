package org.jtorch.io;

import java.math.BigInteger;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The {@code torch._utils._rebuild_*} functions: tensors from a storage reference and their geometry. Every argument is
 * checked (types, non-negative sizes and strides, the extent against the storage, with overflow-safe arithmetic) before
 * a tensor is made.
 */
final class TensorRebuild {
    /** Resolves a persistent id to the storage that a tensor of {@code dtype} views (one storage per key). */
    interface Storages {
        Storage storage(StorageRef ref, DType dtype);
    }

    private final Storages storages;
    private final String what;
    private final Budget budget;

    TensorRebuild(Storages storages, String what, Budget budget) {
        this.storages = storages;
        this.what = what;
        this.budget = budget;
    }

    /** {@code _rebuild_tensor(storage, storage_offset, size, stride)}. */
    Tensor tensorV1(PyTuple a) {
        count(a, 4, 4, "_rebuild_tensor");
        StorageRef ref = ref(a.get(0));
        return tensor(ref, typedDtype(ref), a.get(1), a.get(2), a.get(3), false);
    }

    /** {@code _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])}. */
    Tensor tensorV2(PyTuple a) {
        count(a, 6, 7, "_rebuild_tensor_v2");
        StorageRef ref = ref(a.get(0));
        return tensor(ref, typedDtype(ref), a.get(1), a.get(2), a.get(3), bool(a.get(4), "requires_grad"));
    }

    /**
     * {@code _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype[,
     * metadata])}.
     */
    Tensor tensorV3(PyTuple a) {
        count(a, 7, 8, "_rebuild_tensor_v3");
        return tensor(ref(a.get(0)), dtype(a.get(6)), a.get(1), a.get(2), a.get(3), bool(a.get(4), "requires_grad"));
    }

    /** {@code _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad)}: a meta tensor, no data. */
    Tensor metaTensor(PyTuple a) {
        count(a, 4, 4, "_rebuild_meta_tensor_no_storage");
        DType dtype = dtype(a.get(0));
        long[] size = longs(a.get(1), "size");
        long[] stride = sameRank(size, longs(a.get(2), "stride"));
        long extent = extent(0, size, stride);
        long slots = multiply(extent, dtype.slotsPerElement());
        Tensor t = Tensor.of(TensorImpl.of(Storage.meta(dtype.storageKind(), slots), 0, size, stride, dtype));
        return bool(a.get(3), "requires_grad") ? t.requiresGrad(true) : t;
    }

    /**
     * {@code _rebuild_parameter(data, requires_grad, backward_hooks)} and {@code _rebuild_parameter_with_state(data,
     * requires_grad, backward_hooks, state)}: JTorch has no Parameter class, so a parameter loads as its tensor with
     * {@code requires_grad} set.
     */
    Tensor parameter(PyTuple a, String fn) {
        boolean withState = fn.endsWith("_with_state");
        count(a, withState ? 4 : 3, withState ? 4 : 3, fn);
        if (!(a.get(0) instanceof Tensor data)) throw new UnpicklingException(what + ": " + fn + " expects a tensor");
        return data.requiresGrad(bool(a.get(1), "requires_grad"));
    }

    private Tensor tensor(
            StorageRef ref, DType dtype, Object offsetArg, Object sizeArg, Object strideArg, boolean requiresGrad) {
        long offset = nonNegative(offsetArg, "storage_offset");
        long[] size = longs(sizeArg, "size");
        long[] stride = sameRank(size, longs(strideArg, "stride"));
        Storage storage = storages.storage(ref, dtype);
        long elements = storage.slots() / dtype.slotsPerElement();
        long extent = extent(offset, size, stride);
        if (extent > elements) {
            throw new TorchException(what + ": a tensor of size " + Shapes.str(size) + ", stride " + Shapes.str(stride)
                    + " and offset " + offset + " needs " + extent + " elements but its storage '" + ref.key()
                    + "' has " + elements);
        }
        Tensor t = Tensor.of(TensorImpl.of(storage, offset, size, stride, dtype));
        return requiresGrad ? t.requiresGrad(true) : t;
    }

    /** Every rebuild pairs size i with stride i: a shorter stride would be read past its end. */
    private long[] sameRank(long[] size, long[] stride) {
        if (size.length != stride.length) {
            throw new TorchException(what + ": tensor size " + Shapes.str(size) + " and stride " + Shapes.str(stride)
                    + " have different lengths");
        }
        return stride;
    }

    /** Elements a strided tensor needs in its storage: {@code offset + Σ (size_i − 1)·stride_i + 1}, 0 when empty. */
    private long extent(long offset, long[] size, long[] stride) {
        for (long s : size) {
            if (s == 0) return 0;
        }
        long last = offset;
        for (int i = 0; i < size.length; i++) last = add(last, multiply(size[i] - 1, stride[i]));
        return add(last, 1);
    }

    private long multiply(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new TorchException(what + ": tensor geometry overflows 64 bits");
        }
    }

    private long add(long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new TorchException(what + ": tensor geometry overflows 64 bits");
        }
    }

    private StorageRef ref(Object o) {
        if (o instanceof StorageRef r) return r;
        throw new UnpicklingException(what + ": expected a storage (persistent id), got " + PyRepr.typeName(o));
    }

    private DType typedDtype(StorageRef ref) {
        if (ref.type().untyped()) {
            throw new UnpicklingException(
                    what + ": an UntypedStorage needs _rebuild_tensor_v3, which carries the dtype");
        }
        if (ref.type().dtype() == null) {
            throw new TorchException("torch.load: " + what + " contains a "
                    + ref.type().name() + " (quantized tensors), which JTorch does " + "not support");
        }
        return ref.type().dtype();
    }

    private DType dtype(Object o) {
        if (o instanceof DType d) return d;
        if (o instanceof PyGlobal g)
            throw new TorchException("torch.load: " + what + " uses dtype " + g + ", which JTorch does not support");
        throw new UnpicklingException(what + ": expected a dtype, got " + PyRepr.typeName(o));
    }

    private void count(PyTuple a, int min, int max, String fn) {
        if (a.size() < min || a.size() > max) {
            throw new UnpicklingException(what + ": " + fn + " expects " + (min == max ? "" + min : min + " to " + max)
                    + " arguments, got " + a.size());
        }
    }

    private long[] longs(Object o, String name) {
        List<Object> items;
        if (o instanceof PyTuple t) items = t.items();
        else if (o instanceof List<?> l) items = new java.util.ArrayList<>(l);
        else
            throw new UnpicklingException(
                    what + ": tensor " + name + " must be a tuple of ints, got " + PyRepr.typeName(o));
        budget.charge(items.size());
        long[] out = new long[items.size()];
        for (int i = 0; i < out.length; i++) out[i] = nonNegative(items.get(i), "tensor " + name);
        return out;
    }

    private long nonNegative(Object o, String name) {
        if (o instanceof Long l && l >= 0) return l;
        if (o instanceof Long || o instanceof BigInteger) {
            throw new TorchException(what + ": " + name + " must be non-negative and below 2^63, got " + PyRepr.of(o));
        }
        throw new UnpicklingException(what + ": " + name + " must be an int, got " + PyRepr.typeName(o));
    }

    private boolean bool(Object o, String name) {
        if (o instanceof Boolean b) return b;
        throw new UnpicklingException(what + ": " + name + " must be a bool, got " + PyRepr.typeName(o));
    }
}
