package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.junit.jupiter.api.Test;

/** {@code nn.Parameter}, {@code Module.__setattr__}'s registration rules, and {@code ParameterDict}'s dict API. */
class ParameterTest {
    static final class Holder extends Module {
        Holder() {
            registerParameter("w", Torch.ones(2));
            registerBuffer("running", Torch.zeros(2));
            register("child", new Linear(2, 2));
        }
    }

    @Test
    void aParameterSharesItsDataAndIsALeaf() {
        Tensor data = Torch.ones(3).requiresGrad(true).mul(2.0);
        Tensor p = Parameter.of(data);
        assertTrue(Parameter.isParameter(p));
        assertFalse(Parameter.isParameter(data));
        assertTrue(p.requiresGrad());
        assertNull(p.gradFn());
        assertEquals(data.untypedStorage(), p.untypedStorage());
        assertThrows(TorchException.class, () -> Parameter.of(Torch.tensor(new long[] {1})));
        assertFalse(Parameter.of(Torch.tensor(new long[] {1}), false).requiresGrad());
    }

    @Test
    void aFrozenParameterStaysFrozenWhenRegistered() {
        Holder h = new Holder();
        h.setAttribute("frozen", Parameter.of(Torch.ones(2), false));
        assertFalse(h.getParameter("frozen").requiresGrad());
        assertTrue(h.getParameter("w").requiresGrad());
        assertTrue(Parameter.isParameter(h.getParameter("w")), "a registered tensor is a parameter");
        assertEquals(
                List.of("w", "frozen", "running", "child.weight", "child.bias"),
                List.copyOf(h.stateDict().keySet()));
    }

    @Test
    void setAttributeFollowsModuleSetattr() {
        Holder h = new Holder();
        // a Parameter replaces a buffer of that name
        h.setAttribute("running", Parameter.of(Torch.zeros(2)));
        assertTrue(h.registeredParameters().containsKey("running"));
        assertFalse(h.registeredBuffers().containsKey("running"));
        // a module for a parameter's name is refused, as in PyTorch; for a buffer's name it replaces the buffer
        assertThrows(TorchTypeException.class, () -> h.setAttribute("w", new Identity()));
        Holder k = new Holder();
        k.setAttribute("running", new Identity());
        assertFalse(k.registeredBuffers().containsKey("running"));
        assertTrue(k.registeredModules().containsKey("running"));
        TorchTypeException e = assertThrows(TorchTypeException.class, () -> h.setAttribute("running", Torch.ones(2)));
        assertEquals(
                "cannot assign 'torch.FloatTensor' as parameter 'running' (torch.nn.Parameter or None expected)",
                e.getMessage());
        e = assertThrows(TorchTypeException.class, () -> h.setAttribute("child", Torch.ones(2)));
        assertEquals(
                "cannot assign 'torch.FloatTensor' as child module 'child' (torch.nn.Module or None expected)",
                e.getMessage());
        h.setAttribute("running", null);
        assertNull(h.registeredParameters().get("running"));
        Holder g = new Holder();
        Tensor b = Torch.ones(2).to(DType.FLOAT64);
        g.setAttribute("running", b);
        assertSame(b, g.getBuffer("running"));
        assertThrows(IllegalArgumentException.class, () -> g.setAttribute("plain", Torch.ones(2)));
    }

    @Test
    void parameterDictWrapsKeepsOrderAndPops() {
        LinkedHashMap<String, Tensor> ordered = new LinkedHashMap<>();
        ordered.put("z", Torch.ones(2));
        ordered.put("a", Torch.zeros(3));
        ParameterDict pd = new ParameterDict(ordered);
        assertEquals(List.of("z", "a"), pd.keys(), "an ordered map keeps its order");
        assertTrue(Parameter.isParameter(pd.get("z")));
        assertTrue(pd.get("a").requiresGrad());
        Tensor frozen = Parameter.of(Torch.ones(1), false);
        assertSame(frozen, pd.put("f", frozen));
        assertEquals(3, pd.size());
        Tensor popped = pd.pop("z");
        assertEquals(2, popped.numel());
        assertFalse(pd.containsKey("z"));
        assertThrows(IllegalArgumentException.class, () -> pd.get("z"));
        assertEquals(List.of("a", "f"), List.copyOf(pd.namedParameters().keySet()));
        pd.clear();
        assertEquals(0, pd.size());
    }
}
