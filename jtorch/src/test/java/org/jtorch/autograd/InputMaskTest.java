package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.ops.InputMask;
import org.junit.jupiter.api.Test;

/** Masked VJPs are told which inputs need a gradient as an argument, and skip the others. */
class InputMaskTest {

    /** The names of the ops {@code body} runs. */
    private static List<String> opsRun(Runnable body) {
        List<String> names = new ArrayList<>();
        try (var _ = DispatchState.enter(DispatchState.Kind.MODE, (op, args, next) -> {
            names.add(op.name());
            return next.call(op, args);
        })) {
            body.run();
        }
        return names;
    }

    private static long count(List<String> names, String name) {
        return names.stream().filter(name::equals).count();
    }

    @Test
    void mmBackwardComputesOnlyTheGradientAskedFor() {
        Tensor a = Torch.rand(3, 4), b = Torch.rand(4, 5).requiresGrad(true);
        Tensor y = a.mm(b).sum();
        assertEquals(1, count(opsRun(y::backward), "mm"));
        assertTrue(b.grad() != null);

        Tensor c = Torch.rand(3, 4).requiresGrad(true), d = Torch.rand(4, 5).requiresGrad(true);
        Tensor z = c.mm(d).sum();
        assertEquals(2, count(opsRun(z::backward), "mm"));
    }

    @Test
    void aMaskAnswersForTheInputsItKnowsAndYesBeyond() {
        InputMask mask = InputMask.of(true, false);
        assertTrue(mask.needs(0));
        assertFalse(mask.needs(1));
        assertTrue(mask.needs(2));
        boolean[] source = {false};
        InputMask copy = InputMask.of(source);
        source[0] = true;
        assertFalse(copy.needs(0));
    }
}
