package org.jtorch.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DiffRunKnownDifferencesTest {
    private static final DiffRunKnownDifferences LIST = DiffRunKnownDifferences.parse("""
            # a comment
            linalg_lu  ?value  *  *  tall-*  rounding of the machine's LAPACK
            kron  torch-raises  *  *  transposed  PyTorch views a non-contiguous input
            """);

    @Test
    void aQuestionMarkKindCoversItsKindAndIsMachineDependent() {
        DiffRunKnownDifferences.Difference d = LIST.find("linalg_lu", "value", "float64", "SAMPLE", "tall-batched");
        assertEquals("rounding of the machine's LAPACK", d.reason());
        assertTrue(d.machineDependent());
        assertNull(LIST.find("linalg_lu", "grad", "float64", "SAMPLE", "tall-batched"));
        assertNull(LIST.find("linalg_lu", "?value", "float64", "SAMPLE", "tall-batched"));
    }

    @Test
    void aPlainKindMatchesOnlyItselfAndIsNotMachineDependent() {
        DiffRunKnownDifferences.Difference d = LIST.find("kron", "torch-raises", "int64", "SAMPLE", "transposed");
        assertFalse(d.machineDependent());
        assertNull(LIST.find("kron", "value", "int64", "SAMPLE", "transposed"));
    }

    @Test
    void aLineWithoutReasonIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> DiffRunKnownDifferences.parse("kron value * * *"));
    }
}
