package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/**
 * Refusals PyTorch 2.13 gives (checked with it: the class of each error and the words that matter), on the CPU and on
 * the meta device alike: sizes that overflow int64, a 0-d self where a dim is needed, and backward ops whose gradient
 * does not fit the place it is written to.
 */
class SizeAndIndexChecksTest {
    private static void refusesOnBothDevices(Class<? extends RuntimeException> type, String words, Device... devices) {
        for (Device device : devices) {
            RuntimeException e = assertThrows(type, () -> call(words, device));
            assertTrue(e.getMessage().contains(words), device + ": " + e.getMessage());
        }
    }

    private static void call(String which, Device device) {
        Tensor v3 = Torch.zeros(new long[] {3}, DType.FLOAT32, device);
        Tensor m23 = Torch.zeros(new long[] {2, 3}, DType.FLOAT32, device);
        switch (which) {
            case "overflows int64" -> m23.repeat(Long.MAX_VALUE, 2);
            case "longer than int64" -> ArrangeOps.diagEmbed(m23, Long.MAX_VALUE, -2, -1);
            case "tensor has no dimensions" ->
                ArrangeOps.repeatInterleave(Torch.scalarTensor(5.0).to(device), Torch.tensor(new long[] {1}), 0, 1L);
            case "index 2 out of range" -> BackwardOps.selectBackward(v3, new long[] {2, 3}, 0, 2);
            case "must match the size" ->
                BackwardOps.selectBackward(Torch.zeros(5).to(device), new long[] {2, 3}, 0, 0);
            case "doesn't match the broadcast shape" ->
                BackwardOps.sliceBackward(Torch.zeros(2, 2, 3).to(device), new long[] {4, 3}, 0, 0, 2, 1);
            default -> throw new AssertionError(which);
        }
    }

    @Test
    void overflowingSizesAreTorchExceptions() {
        // PyTorch: RuntimeError (a negative dimension after wrapping / "cannot be represented as a SymInt")
        refusesOnBothDevices(TorchException.class, "overflows int64", Device.CPU, Device.META);
        refusesOnBothDevices(TorchException.class, "longer than int64", Device.CPU, Device.META);
    }

    @Test
    void zeroDimSelfHasNoDimToRepeatAlong() {
        // PyTorch: IndexError: Dimension specified as 0 but tensor has no dimensions
        refusesOnBothDevices(IndexOutOfBoundsException.class, "tensor has no dimensions", Device.CPU);
    }

    @Test
    void backwardOpsCheckTheGradientAgainstItsPlace() {
        // PyTorch: IndexError "select(): index 2 out of range ..."; RuntimeError "The size of tensor a (3) must match
        // the size of tensor b (5) at non-singleton dimension 0"; a gradient with more dims than its slice is refused
        refusesOnBothDevices(IndexOutOfBoundsException.class, "index 2 out of range", Device.CPU, Device.META);
        refusesOnBothDevices(TorchException.class, "must match the size", Device.CPU, Device.META);
        refusesOnBothDevices(TorchException.class, "doesn't match the broadcast shape", Device.CPU, Device.META);
    }

    @Test
    void aBroadcastableGradientIsStillAccepted() {
        // PyTorch's select_backward copies with broadcasting: a [1] gradient fills the whole row
        Tensor g = BackwardOps.selectBackward(Torch.ones(1), new long[] {2, 3}, 0, 1);
        assertArrayEquals(new double[] {0, 0, 0, 1, 1, 1}, g.reshape(-1).toDoubleArray());
    }
}
