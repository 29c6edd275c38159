package org.jtorch.accelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.jtorch.Device;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** {@code torch.accelerator} on a machine without an accelerator, as PyTorch 2.15 behaves on a CPU-only build. */
class AcceleratorTest {
    private static final String NONE = "Cannot access accelerator device when none is available.";

    @Test
    void queriesReportNoAccelerator() {
        assertFalse(Accelerator.isAvailable());
        assertEquals(0, Accelerator.deviceCount());
        assertEquals(Optional.empty(), Accelerator.currentAccelerator());
        assertEquals(Optional.empty(), Accelerator.currentAccelerator(true));
        assertEquals(Optional.empty(), Accelerator.currentAccelerator(false));
    }

    @Test
    void deviceOperationsRaiseRuntimeError() {
        assertNone(Accelerator::currentDeviceIndex);
        assertNone(Accelerator::synchronize);
        assertNone(() -> Accelerator.synchronize(0));
        assertNone(() -> Accelerator.setDeviceIndex(0));
        assertNone(() -> Accelerator.setDeviceIndex(3));
        assertNone(() -> Accelerator.deviceIndex(0));
    }

    @Test
    void negativeIndexAndNullScopeAreNoOps() throws Exception {
        Accelerator.setDeviceIndex(-1);
        try (AutoCloseable _ = Accelerator.deviceIndex(null)) {
            assertFalse(Accelerator.isAvailable());
        }
        // a no-op leaves the facade exactly as it was: still no device, still refusing device access
        assertEquals(0, Accelerator.deviceCount());
        assertEquals(Optional.empty(), Accelerator.currentAccelerator());
        assertThrows(org.jtorch.TorchException.class, Accelerator::currentDeviceIndex);
    }

    @Test
    void deviceArgumentsMustMatchTheMissingAccelerator() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Accelerator.setDeviceIndex("cuda:0"));
        assertEquals("cuda doesn't match the current accelerator None.", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Accelerator.setDeviceIndex(Device.CPU));
        assertEquals("cpu doesn't match the current accelerator None.", e.getMessage());
    }

    @Test
    @SuppressWarnings("deprecation")
    void deprecatedAliasesWarnThenBehaveAlike() {
        try (WarningRecorder w = Warnings.catchWarnings()) {
            assertNone(Accelerator::currentDeviceIdx);
            Accelerator.setDeviceIdx(-2); // a no-op apart from its FutureWarning
            assertEquals(2, w.records().size());
            assertEquals(Warnings.Category.FUTURE_WARNING, w.records().get(0).category());
            assertEquals(
                    "Use `current_device_index` instead.", w.records().get(0).message());
            assertEquals("Use `set_device_index` instead.", w.records().get(1).message());
        }
    }

    @Test
    void rngFunctionsOf214ThrowIllegalState() {
        for (Executable call : new Executable[] {
            Accelerator.Random::initialSeed,
            Accelerator.Random::getRngState,
            Accelerator.Random::getRngStateAll,
            () -> Accelerator.Random.initialSeed(0),
            () -> Accelerator.Random.getRngState(0),
            Accelerator::initialSeed,
            Accelerator::getRngState,
            Accelerator::getRngStateAll
        }) {
            IllegalStateException e = assertThrows(IllegalStateException.class, call);
            assertTrue(e.getMessage().startsWith("no accelerator available"), e.getMessage());
            assertTrue(e.getMessage().contains(NONE), e.getMessage());
        }
    }

    private static void assertNone(Executable call) {
        TorchException e = assertThrows(TorchException.class, call);
        assertTrue(e.getMessage().startsWith(NONE), e.getMessage());
    }
}
