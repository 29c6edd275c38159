package org.jtorch.kernels.mpi;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.TorchException;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * Copies contiguous CPU tensors into the native buffers MPI reads and back out of the ones it writes. Tensors live on
 * the Java heap, whose objects the garbage collector moves, so MPI (which may keep using a buffer while the JVM runs)
 * only ever sees native memory.
 *
 * <p>Data is moved as storage slots ({@link #slotType}): a complex element is two slots, a bfloat16 one unsigned 16-bit
 * slot, so any tensor that fits in a heap array has a slot count within MPI's {@code int} range.
 */
public final class Staging {
    private Staging() {}

    /** The bytes a contiguous tensor's elements take. */
    public static long bytes(TensorImpl t) {
        return t.numel() * t.dtype().itemSize();
    }

    /** The storage slots a tensor's elements take: the element count MPI is given when moving it. */
    public static long slots(TensorImpl t) {
        return t.numel() * t.dtype().slotsPerElement();
    }

    /**
     * The MPI datatype that moves one storage slot of {@code dtype} unchanged: bytes for 1-byte slots, unsigned
     * integers of the slot's width otherwise (never a floating-point type, so no NaN payload is ever touched).
     */
    public static MpiDatatype slotType(DType dtype) {
        return switch (Storage.slotBytes(dtype.storageKind())) {
            case 1 -> MpiDatatype.BYTE;
            case 2 -> MpiDatatype.UINT16;
            case 4 -> MpiDatatype.UINT32;
            default -> MpiDatatype.UINT64;
        };
    }

    /** Copies {@code src}'s elements into {@code dst} from byte {@code dstByteOffset} on. */
    public static void copyIn(TensorImpl src, MemorySegment dst, long dstByteOffset) {
        requireDense("Staging.copyIn", src);
        long bytes = bytes(src);
        requireRange("Staging.copyIn", dst, dstByteOffset, bytes);
        MemorySegment.copy(
                src.storage().segment(), src.storageOffset() * src.dtype().itemSize(), dst, dstByteOffset, bytes);
    }

    /** Copies bytes of {@code src} from {@code srcByteOffset} on into {@code dst}'s elements. */
    public static void copyOut(MemorySegment src, long srcByteOffset, TensorImpl dst) {
        requireDense("Staging.copyOut", dst);
        long bytes = bytes(dst);
        requireRange("Staging.copyOut", src, srcByteOffset, bytes);
        MemorySegment.copy(
                src,
                srcByteOffset,
                dst.storage().segment(),
                dst.storageOffset() * dst.dtype().itemSize(),
                bytes);
        dst.bumpVersion();
    }

    private static void requireDense(String fn, TensorImpl t) {
        if (!t.device().equals(Device.CPU) || !t.hasData()) {
            throw new TorchException(fn + ": needs a CPU tensor with data, got one on " + t.device());
        }
        if (!t.isContiguous()) throw new TorchException(fn + ": needs a contiguous tensor");
    }

    private static void requireRange(String fn, MemorySegment buffer, long offset, long bytes) {
        if (offset < 0 || offset > buffer.byteSize() - bytes) {
            throw new TorchException(fn + ": " + bytes + " bytes at offset " + offset + " do not fit a buffer of "
                    + buffer.byteSize() + " bytes");
        }
    }
}
