package org.jtorch.foreach;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.ForeachOps;
import org.junit.jupiter.api.Test;

/**
 * Empty lists in {@code _foreach_copy}, as PyTorch 2.13 treats them: the functional op returns an empty list
 * ({@code torch.ops.aten._foreach_copy([], [])} is {@code []}), while the in-place {@code _foreach_copy_} raises
 * "Tensor list must have at least one tensor.". Lists empty on one side only are refused: PyTorch 2.13 reads past the
 * shorter list there (its process dies on {@code ([], [t])}, and {@code ([t], [])} gives {@code []}).
 */
class ForeachCopyEmptyListTest {
    @Test
    void functionalCopyOfTwoEmptyListsIsAnEmptyList() {
        Object r = Dispatcher.call(ForeachOps.COPY.op(), new Tensor[0], new Tensor[0], false);
        assertEquals(0, ((Tensor[]) r).length);
    }

    @Test
    void inPlaceCopyStillRefusesEmptyLists() {
        TorchException e = assertThrows(TorchException.class, () -> Foreach.copy_(List.of(), List.of()));
        assertTrue(e.getMessage().contains("Tensor list must have at least one tensor."), e.getMessage());
    }

    @Test
    void oneEmptySideIsRefused() {
        Tensor t = Torch.ones(2);
        assertThrows(
                TorchException.class,
                () -> Dispatcher.call(ForeachOps.COPY.op(), new Tensor[0], new Tensor[] {t}, false));
        assertThrows(
                TorchException.class,
                () -> Dispatcher.call(ForeachOps.COPY.op(), new Tensor[] {t}, new Tensor[0], false));
    }
}
