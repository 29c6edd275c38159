package org.jtorch.distributed;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.kernels.mpi.Staging;

/**
 * Native staging buffers: tensors are copied in on the calling thread before a call is queued (so a later write to an
 * input does not race with MPI), and results are copied out on the thread that awaits the call. Non-contiguous tensors
 * go through a contiguous copy both ways. An all-reduce of a contiguous tensor that already lives in native memory
 * (DDP's gradient buckets) needs no staging: MPI works in the tensor itself.
 */
final class Buffers {
    private Buffers() {}

    /** A zero-filled native buffer of {@code bytes} bytes, 16-byte aligned (complex128). */
    static MemorySegment allocate(Arena arena, long bytes) {
        return arena.allocate(Math.max(bytes, 1), 16);
    }

    /** One native buffer holding the tensors' elements back to back. */
    static MemorySegment stage(Arena arena, List<Tensor> tensors) {
        long total = 0;
        for (Tensor t : tensors) total += bytes(t);
        MemorySegment buffer = allocate(arena, total);
        long offset = 0;
        try (var _ = Torch.noGrad()) {
            for (Tensor t : tensors) {
                Staging.copyIn(t.contiguous().impl(), buffer, offset);
                offset += bytes(t);
            }
        }
        return buffer;
    }

    /**
     * The memory of {@code t}'s elements when MPI can work in it directly: a contiguous tensor over native memory
     * (which the garbage collector never moves); null for heap tensors and non-contiguous ones, which are staged.
     */
    static MemorySegment nativeMemory(Tensor t) {
        if (!t.isContiguous() || !t.device().equals(Device.CPU) || !t.impl().hasData()) return null;
        MemorySegment storage = t.impl().storage().segment();
        if (storage == null || !storage.isNative()) return null;
        long item = t.dtype().itemSize();
        return storage.asSlice(t.impl().storageOffset() * item, t.numel() * item);
    }

    /** Copies elements from byte {@code offset} of {@code buffer} into {@code into}, whatever its strides. */
    static void writeBack(MemorySegment buffer, long offset, Tensor into) {
        if (into.isContiguous()) {
            Staging.copyOut(buffer, offset, into.impl());
            return;
        }
        Tensor dense = read(buffer, offset, into.shape(), into.dtype());
        try (var _ = Torch.noGrad()) {
            into.copy_(dense);
        }
    }

    /** Copies result data into {@code into} (a JTorch-reduced result), whatever its strides. */
    static void writeBack(Tensor result, Tensor into) {
        try (var _ = Torch.noGrad()) {
            into.copy_(result);
        }
    }

    /** A fresh contiguous tensor of {@code shape} and {@code dtype} read from byte {@code offset} of the buffer. */
    static Tensor read(MemorySegment buffer, long offset, long[] shape, DType dtype) {
        Tensor t = Torch.empty(shape, dtype, Device.CPU);
        Staging.copyOut(buffer, offset, t.impl());
        return t;
    }

    /** The bytes of a tensor's elements. */
    static long bytes(Tensor t) {
        return t.numel() * t.dtype().itemSize();
    }

    /** The storage slots of a tensor's elements: MPI's element count when moving it. */
    static long slots(Tensor t) {
        return t.numel() * t.dtype().slotsPerElement();
    }
}
