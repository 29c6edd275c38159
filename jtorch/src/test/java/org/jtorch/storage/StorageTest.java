package org.jtorch.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Tests for {@link Storage}: allocations the heap cannot hold fail as a {@link TorchException}, never an Error. */
class StorageTest {
    @Test
    void aRequestBeyondTheMaximumHeapSaysHowToRaiseIt() {
        long heap = Runtime.getRuntime().maxMemory();
        long elements = Storage.MAX_HEAP_SLOTS;
        assertTrue(elements * 8 > heap, "the test runs with a heap below " + elements * 8 + " bytes");
        var e = assertThrows(
                TorchException.class, () -> Torch.empty(new long[] {elements}, DType.FLOAT64, org.jtorch.Device.CPU));
        assertEquals(
                "DefaultCPUAllocator: can't allocate memory: you tried to allocate " + elements * 8
                        + " bytes, more than the Java heap (at most " + heap + " bytes) has room for; raise its "
                        + "maximum with -Xmx (e.g. -Xmx32g) or make the tensor smaller",
                e.getMessage());
    }

    @Test
    void aRequestBeyondTheFreeHeapFailsCleanlyAndLeavesTheHeapUsable() {
        // each request fits the maximum heap, two do not: the second one's OutOfMemoryError becomes a TorchException
        long slots = Math.min(Storage.MAX_HEAP_SLOTS, Runtime.getRuntime().maxMemory() * 6 / 10);
        Storage first = Storage.allocate(DType.StorageKind.BYTE, slots);
        var e = assertThrows(TorchException.class, () -> Storage.allocate(DType.StorageKind.BYTE, slots));
        assertTrue(e.getMessage().contains("you tried to allocate " + slots + " bytes"), e.getMessage());
        assertEquals(slots, first.slots());
        assertEquals(4, Storage.allocate(DType.StorageKind.FLOAT, 4).slots());
    }
}
