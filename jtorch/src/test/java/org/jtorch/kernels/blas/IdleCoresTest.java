package org.jtorch.kernels.blas;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The idle-core gate: its bounds, and that it reads the kernel's runnable count where there is one. */
class IdleCoresTest {
    @Test
    void oneThreadAlwaysFitsAndMoreThanTheCoresNever() {
        assertTrue(IdleCores.available(1));
        assertFalse(IdleCores.available(Runtime.getRuntime().availableProcessors() + 1));
    }

    @Test
    void countsAtLeastTheReadingThreadOnLinux() {
        if (!Files.isReadable(Path.of("/proc/loadavg"))) {
            assertFalse(IdleCores.available(2), "unknown load: no threads");
            return;
        }
        assertTrue(IdleCores.runnable() >= 1, "the reading thread itself is running");
    }
}
