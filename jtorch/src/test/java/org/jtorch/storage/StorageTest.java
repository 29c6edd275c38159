package org.jtorch.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
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
        // each request fits the maximum heap, but holding them all does not: the first request the heap cannot
        // satisfy must fail as a TorchException (its OutOfMemoryError caught), not as an Error
        long slots = Runtime.getRuntime().maxMemory() / 10;
        List<Storage> held = new ArrayList<>();
        var e = assertThrows(TorchException.class, () -> {
            while (held.size() < 20) held.add(Storage.allocate(DType.StorageKind.BYTE, slots));
        });
        assertTrue(e.getMessage().contains("you tried to allocate " + slots + " bytes"), e.getMessage());
        assertTrue(held.size() >= 1 && held.size() <= 10, held.size() + " allocations succeeded");
        held.clear();
        assertEquals(slots, Storage.allocate(DType.StorageKind.BYTE, slots).slots());
    }
}
