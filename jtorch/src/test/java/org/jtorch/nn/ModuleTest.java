package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.junit.jupiter.api.Test;

/** Module infrastructure: registration order, traversal, state dicts, modes, hooks, dtype casts and printing. */
class ModuleTest {
    /** A module with every kind of state, registered in a deliberately non-alphabetical order. */
    static final class Block extends Module {
        Block() {
            registerParameter("zeta", Torch.ones(2));
            registerBuffer("running", Torch.zeros(2));
            register("proj", new Linear(2, 2));
            registerParameter("alpha", Torch.ones(3));
            registerBuffer("scratch", Torch.zeros(1), false);
            registerParameter("unused", null);
        }

        @Override
        public Tensor forward(Tensor input) {
            return getSubmodule("proj").call(input).mul(getParameter("zeta"));
        }
    }

    static final class Net extends Module {
        Net() {
            register("block", new Block());
            register("head", new Linear(2, 1));
        }
    }

    @Test
    void registrationOrderIsDeclarationOrder() {
        Net net = new Net();
        assertEquals(
                List.of(
                        "block.zeta",
                        "block.alpha",
                        "block.proj.weight",
                        "block.proj.bias",
                        "head.weight",
                        "head.bias"),
                new ArrayList<>(net.namedParameters().keySet()));
        assertEquals(
                List.of("block.running", "block.scratch"),
                new ArrayList<>(net.namedBuffers().keySet()));
        assertEquals(
                List.of("", "block", "block.proj", "head"),
                new ArrayList<>(net.namedModules().keySet()));
        assertEquals(
                List.of("block", "head"), new ArrayList<>(net.namedChildren().keySet()));
        assertEquals(6, net.parameters().size());
        for (Tensor p : net.parameters()) assertTrue(p.requiresGrad());
    }

    @Test
    void stateDictKeysFollowPyTorch() {
        Net net = new Net();
        // parameters then persistent buffers of each module, then its children; None and non-persistent left out
        assertEquals(
                List.of(
                        "block.zeta",
                        "block.alpha",
                        "block.running",
                        "block.proj.weight",
                        "block.proj.bias",
                        "head.weight",
                        "head.bias"),
                new ArrayList<>(net.stateDict().keySet()));
        Tensor w = net.stateDict().get("head.weight");
        assertFalse(w.requiresGrad());
        assertSame(
                w.untypedStorage(), ((Linear) net.getSubmodule("head")).weight().untypedStorage());
    }

    @Test
    void tiedParametersAreListedOnce() {
        Linear shared = new Linear(2, 2);
        Sequential seq = new Sequential(shared, new ReLU(), shared);
        assertEquals(
                List.of("0.weight", "0.bias"),
                new ArrayList<>(seq.namedParameters().keySet()));
        assertEquals(3, seq.size());
    }

    @Test
    void stateDictRoundTrip() {
        Net a = new Net();
        Net b = new Net();
        Tensor bWeight = ((Linear) b.getSubmodule("head")).weight();
        Module.IncompatibleKeys keys = b.loadStateDict(a.stateDict());
        assertEquals(List.of(), keys.missingKeys());
        assertEquals(List.of(), keys.unexpectedKeys());
        assertSame(bWeight, ((Linear) b.getSubmodule("head")).weight(), "loading copies into the existing tensors");
        a.stateDict()
                .forEach((k, v) -> assertArrayEquals(
                        v.toDoubleArray(), b.stateDict().get(k).toDoubleArray(), k));
        assertTrue(bWeight.requiresGrad());
    }

    @Test
    void failedStrictLoadReportsLikePyTorchAndChangesNothing() {
        Linear m = new Linear(4, 3);
        double[] before = m.weight().toDoubleArray();
        Map<String, Tensor> sd = new LinkedHashMap<>();
        sd.put("weight", Torch.zeros(2, 4));
        sd.put("foo", Torch.zeros(1));
        TorchException e = assertThrows(TorchException.class, () -> m.loadStateDict(sd));
        assertEquals(
                "Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: \"bias\". \n\t"
                        + "Unexpected key(s) in state_dict: \"foo\". \n\tsize mismatch for weight: copying "
                        + "a param with shape "
                        + "torch.Size([2, 4]) from checkpoint, the shape in current model is torch.Size([3, 4]).",
                e.getMessage());
        assertArrayEquals(before, m.weight().toDoubleArray());
    }

    @Test
    void nonStrictLoadReportsKeysAndLoadsTheRest() {
        Linear m = new Linear(2, 2);
        Map<String, Tensor> sd = new LinkedHashMap<>();
        sd.put("weight", Torch.tensor(new double[][] {{1, 2}, {3, 4}}));
        sd.put("extra.weight", Torch.zeros(1));
        Module.IncompatibleKeys keys = m.loadStateDict(sd, false);
        assertEquals(List.of("bias"), keys.missingKeys());
        assertEquals(List.of("extra.weight"), keys.unexpectedKeys());
        assertArrayEquals(new double[] {1, 2, 3, 4}, m.weight().toDoubleArray());
        assertEquals(DType.FLOAT32, m.weight().dtype(), "values are cast into the parameter's dtype");
        // a shape mismatch fails even when not strict, naming the parameter and both shapes
        TorchException e =
                assertThrows(TorchException.class, () -> m.loadStateDict(Map.of("bias", Torch.zeros(5)), false));
        assertTrue(
                e.getMessage()
                        .contains("size mismatch for bias: copying a param with shape torch.Size([5]) from "
                                + "checkpoint, the shape in current model is torch.Size([2])."),
                e.getMessage());
    }

    @Test
    void nestedSizeMismatchUsesTheDottedKey() {
        Sequential s = new Sequential(new Linear(2, 2));
        Map<String, Tensor> sd = new LinkedHashMap<>(s.stateDict());
        sd.put("0.bias", Torch.zeros(3));
        TorchException e = assertThrows(TorchException.class, () -> s.loadStateDict(sd));
        assertTrue(e.getMessage()
                .startsWith("Error(s) in loading state_dict for Sequential:\n\tsize mismatch for 0.bias:"));
    }

    @Test
    void trainAndEvalPropagateAndDriveDropout() {
        Sequential s = new Sequential(new Linear(4, 4), new Sequential(new Dropout(0.5)));
        assertTrue(s.get(1).isTraining());
        Dropout d = (Dropout) ((Sequential) s.get(1)).get(0);
        Tensor x = Torch.ones(1000);
        Tensor y = d.call(x);
        double zeros = y.eq(0.0).sum().item();
        assertTrue(zeros > 400 && zeros < 600, "about half dropped: " + zeros);
        assertEquals(1000 - zeros, y.eq(2.0).sum().item(), "survivors scaled by 1/(1-p)");
        s.eval();
        assertFalse(d.isTraining());
        assertFalse(s.isTraining());
        assertSame(x, d.call(x));
        s.train();
        assertTrue(d.isTraining());
    }

    @Test
    void applyVisitsChildrenFirst() {
        Sequential s = new Sequential(new ReLU(), new Sequential(new Tanh()));
        List<String> seen = new ArrayList<>();
        s.apply(m -> seen.add(m.getClass().getSimpleName()));
        assertEquals(List.of("ReLU", "Tanh", "Sequential", "Sequential"), seen);
    }

    @Test
    void zeroGradAndRequiresGrad() {
        Linear m = new Linear(3, 2);
        m.call(Torch.ones(1, 3)).sum().backward();
        assertArrayEquals(new double[] {1, 1, 1, 1, 1, 1}, m.weight().grad().toDoubleArray());
        m.zeroGrad();
        assertNull(m.weight().grad());
        m.requiresGrad_(false);
        assertFalse(m.weight().requiresGrad());
        assertFalse(m.call(Torch.ones(1, 3)).requiresGrad());
    }

    @Test
    void toDtypeCastsFloatingState() {
        Linear m = new Linear(3, 2);
        double[] w = m.weight().toDoubleArray();
        m.to(DType.FLOAT64);
        assertEquals(DType.FLOAT64, m.weight().dtype());
        assertTrue(m.weight().requiresGrad());
        assertTrue(m.weight().isLeaf());
        assertArrayEquals(w, m.weight().toDoubleArray());
        assertEquals(
                DType.FLOAT64,
                m.call(Torch.ones(new long[] {1, 3}, DType.FLOAT64)).dtype());
        assertThrows(TorchTypeException.class, () -> m.to(DType.INT64));
    }

    @Test
    void forwardHooksReplaceInputAndOutputAndCanBeRemoved() throws Exception {
        Identity id = new Identity();
        List<String> log = new ArrayList<>();
        AutoCloseable pre = id.registerForwardPreHook((m, in) -> in.mul(2.0));
        AutoCloseable post = id.registerForwardHook((m, in, out) -> {
            log.add("post " + in.item());
            return out.add(1.0);
        });
        assertEquals(7.0, id.call(Torch.tensor(new double[] {3})).item());
        assertEquals(List.of("post 6.0"), log);
        pre.close();
        post.close();
        assertEquals(3.0, id.call(Torch.tensor(new double[] {3})).item());
    }

    @Test
    void missingForwardNamesTheModule() {
        UnsupportedOperationException e =
                assertThrows(UnsupportedOperationException.class, () -> new ModuleList().call(Torch.ones(1)));
        assertEquals("Module [ModuleList] is missing the required \"forward\" function", e.getMessage());
    }

    @Test
    void badNamesAreRejected() {
        class Bad extends Module {
            Bad(String param, String buffer) {
                registerParameter(param, Torch.ones(1));
                if (buffer != null) registerBuffer(buffer, Torch.ones(1));
            }
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Bad("a.b", null))
                .getMessage()
                .contains("can't contain"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Bad("", null))
                .getMessage()
                .contains("empty string"));
        Tensor nonLeaf = Torch.ones(1).requiresGrad(true).mul(2.0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Bad("w", null) {
                    {
                        registerParameter("v", nonLeaf);
                    }
                })
                .getMessage()
                .startsWith("Cannot assign non-leaf Tensor to parameter 'v'"));
        assertEquals(
                "attribute 'w' already exists",
                assertThrows(IllegalArgumentException.class, () -> new Bad("w", "w"))
                        .getMessage());
    }

    @Test
    void getParameterAndSubmoduleByPath() {
        Net net = new Net();
        assertSame(((Linear) net.getSubmodule("block.proj")).weight(), net.getParameter("block.proj.weight"));
        assertNull(net.getParameter("block.unused"));
        assertEquals(2, net.getBuffer("block.running").numel());
        assertThrows(IllegalArgumentException.class, () -> net.getSubmodule("block.nope"));
        assertThrows(IllegalArgumentException.class, () -> net.getParameter("head.nope"));
        assertNotSame(net.getSubmodule("block"), net.getSubmodule("head"));
    }

    @Test
    void printsTheModuleTreeLikePyTorch() {
        Sequential s = new Sequential(new Linear(4, 3), new ReLU());
        assertEquals(
                "Sequential(\n  (0): Linear(in_features=4, out_features=3, bias=True)\n  (1): ReLU()\n)", s.toString());
        Sequential nested =
                new Sequential(new Linear(4, 3), new Sequential(new ReLU(), new Linear(3, 3)), new Dropout(0.1));
        String expected = """
                Sequential(
                  (0): Linear(in_features=4, out_features=3, bias=True)
                  (1): Sequential(
                    (0): ReLU()
                    (1): Linear(in_features=3, out_features=3, bias=True)
                  )
                  (2): Dropout(p=0.1, inplace=False)
                )""";
        assertEquals(expected, nested.toString());
        assertEquals("""
                Sequential(
                  (1): Sequential(
                    (0): ReLU()
                    (1): Linear(in_features=3, out_features=3, bias=True)
                  )
                  (2): Dropout(p=0.1, inplace=False)
                )""", nested.slice(1, 3).toString());
    }

    @Test
    void leafReprsMatchPyTorch() {
        // strings printed by PyTorch 1.13 (RMSNorm, absent there, follows 2.x's extra_repr)
        assertEquals("Dropout(p=0.5, inplace=False)", new Dropout().toString());
        assertEquals("GELU(approximate='none')", new GELU().toString());
        assertEquals("LeakyReLU(negative_slope=0.01)", new LeakyReLU().toString());
        assertEquals("Softmax(dim=1)", new Softmax(1).toString());
        assertEquals("LogSoftmax(dim=-1)", new LogSoftmax(-1).toString());
        assertEquals("Flatten(start_dim=1, end_dim=-1)", new Flatten().toString());
        assertEquals("Unflatten(dim=1, unflattened_size=(2, 5))", new Unflatten(1, 2, 5).toString());
        assertEquals("SiLU()", new SiLU().toString());
        assertEquals("Tanh()", new Tanh().toString());
        assertEquals("Sigmoid()", new Sigmoid().toString());
        assertEquals("Identity()", new Identity().toString());
        assertEquals("LayerNorm((4,), eps=1e-05, elementwise_affine=True, bias=True)", new LayerNorm(4).toString());
        assertEquals("RMSNorm((4,), eps=None, elementwise_affine=True)", new RMSNorm(4).toString());
        assertEquals("Embedding(5, 3, padding_idx=1)", new Embedding(5, 3, 1L).toString());
        assertEquals(
                "ParameterList(\n    (0): Parameter containing: [torch.float32 of size 3x4]\n"
                        + "    (1): Parameter containing: [torch.float32 of size 2]\n)",
                new ParameterList(Torch.zeros(3, 4), Torch.zeros(2)).toString());
        assertEquals("ModuleDict(\n  (a): ReLU()\n)", new ModuleDict(Map.of("a", new ReLU())).toString());
    }
}
