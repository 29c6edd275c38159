package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** detect_anomaly: NaN gradients name the node and carry the forward traceback; the scope is thread-local. */
class AnomalyTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    /** {@code a + b} whose backward gives {@code b} a NaN gradient. */
    static final class NanForSecond extends Function {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            return new Tensor[] {((Tensor) args[0]).add((Tensor) args[1])};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0], grads[0].mul(Double.NaN)};
        }
    }

    @Test
    void nanGradientNamesTheNodeAndTheForwardLine() {
        Tensor x = leaf(-1.0, 4.0);
        try (var _ = Autograd.detectAnomaly()) {
            assertTrue(Autograd.isAnomalyEnabled());
            Tensor y = x.sqrt().sum(); // sqrt(-1) = nan, so its backward returns nan
            TorchException e = assertThrows(TorchException.class, y::backward);
            String[] lines = e.getMessage().split("\n");
            assertEquals("Function 'SqrtBackward0' returned nan values in its 0th output.", lines[0]);
            assertEquals("Error detected in SqrtBackward0. Traceback of forward call that caused the error:", lines[1]);
            // The traceback starts at the line that called sqrt, not inside the library.
            assertTrue(lines[2].contains("AnomalyTest.nanGradientNamesTheNodeAndTheForwardLine"), lines[2]);
        }
        assertFalse(Autograd.isAnomalyEnabled());
    }

    @Test
    void theIndexOfTheNanGradientIsReported() {
        try (var _ = Autograd.detectAnomaly()) {
            Tensor y = new NanForSecond().apply(leaf(1, 2), leaf(3, 4)).sum();
            TorchException e = assertThrows(TorchException.class, y::backward);
            assertTrue(e.getMessage()
                    .startsWith("Function 'NanForSecondBackward' returned nan values in its 1th output.\n"));
        }
    }

    @Test
    void withoutAnomalyModeNanPassesSilently() {
        Tensor x = leaf(-1.0, 4.0);
        x.sqrt().sum().backward();
        assertTrue(Double.isNaN(x.grad().toDoubleArray()[0]));
        assertEquals(0.25, x.grad().toDoubleArray()[1], 0);
        Tensor z = leaf(-1.0);
        try (var _ = Autograd.detectAnomaly(false)) { // check_nan=False
            z.sqrt().sum().backward();
        }
        assertTrue(Double.isNaN(z.grad().item()));
    }

    @Test
    void tracesAreOnlyKeptForGraphsBuiltInAnomalyMode() {
        Tensor y = leaf(-1.0).sqrt().sum(); // recorded outside the scope: no creation trace
        assertEquals(null, Node.gradFnOf(y).creationTrace);
        try (var _ = Autograd.detectAnomaly()) {
            TorchException e = assertThrows(TorchException.class, y::backward);
            assertEquals("Function 'SqrtBackward0' returned nan values in its 0th output.", e.getMessage());
        }
    }

    @Test
    void otherBackwardErrorsCarryTheForwardTraceback() {
        class OneTooFew extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                return new Tensor[] {((Tensor) args[0]).add((Tensor) args[1])};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {grads[0]};
            }
        }
        try (var _ = Autograd.detectAnomaly()) {
            Tensor y = new OneTooFew().apply(leaf(1), leaf(2)).sum();
            TorchException e = assertThrows(TorchException.class, y::backward);
            assertEquals(
                    "function OneTooFewBackward returned an incorrect number of gradients (expected 2, got 1)",
                    e.getMessage());
            assertEquals(1, e.getSuppressed().length);
            String trace = e.getSuppressed()[0].getMessage();
            assertTrue(trace.contains(
                    "Error detected in OneTooFewBackward. Traceback of forward call that caused the error:"));
            assertTrue(trace.contains("AnomalyTest.otherBackwardErrorsCarryTheForwardTraceback"));
        }
    }

    @Test
    void theScopeIsThreadLocalAndNests() throws InterruptedException {
        AtomicBoolean otherThread = new AtomicBoolean(true);
        try (var _ = Autograd.detectAnomaly()) {
            Thread t = new Thread(() -> otherThread.set(Autograd.isAnomalyEnabled()));
            t.start();
            t.join();
            try (var _ = Autograd.detectAnomaly(false)) {
                assertTrue(Autograd.isAnomalyEnabled());
                assertFalse(AnomalyMode.checksNan());
            }
            assertTrue(AnomalyMode.checksNan());
        }
        assertFalse(otherThread.get());
        assertFalse(Autograd.isAnomalyEnabled());
    }
}
