package org.jtorch.fx;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.foreach.Foreach;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/** {@link Fx#makeFx}: what it records, and that the graph replays eager code bitwise. */
class FxTest {
    private static Tensor x() {
        return Torch.tensor(new double[][] {{0.5, -1.25, 3.0}, {2.0, 0.0, -0.75}})
                .to(DType.FLOAT32);
    }

    private static Tensor y() {
        return Torch.tensor(new double[][] {{1.5, 2.0, -3.0}, {0.25, 4.0, 1.0}}).to(DType.FLOAT32);
    }

    @Test
    void recordsEachOpAsItsOverload() {
        GraphModule gm = Fx.makeFx(
                in -> new Tensor[] {Torch.hypot(in[0].add(in[1]), in[1]).relu()}, x(), y());
        assertEquals("""
                class GraphModule(torch.nn.Module):
                    def forward(self, arg0_1: "f32[2, 3]", arg1_1: "f32[2, 3]"):
                        add: "f32[2, 3]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
                        hypot: "f32[2, 3]" = torch.ops.aten.hypot.default(add, arg1_1)
                        relu: "f32[2, 3]" = torch.ops.aten.relu.default(hypot)
                        return (relu,)
                """, gm.printReadable());
        List<Node> nodes = gm.graph().nodes();
        assertEquals(
                List.of("placeholder", "placeholder", "call_function", "call_function", "call_function", "output"),
                nodes.stream().map(Node::op).toList());
        assertEquals("aten.hypot.default", nodes.get(3).target());
        assertEquals("aten::hypot", nodes.get(3).schema().qualifiedName());
        assertEquals(List.of(nodes.get(2), nodes.get(1)), nodes.get(3).args());
        assertEquals(List.of(nodes.get(4)), nodes.get(3).users());
        TensorMeta m = nodes.get(3).meta();
        assertArrayEquals(new long[] {2, 3}, m.shape());
        assertArrayEquals(new long[] {3, 1}, m.stride());
        assertEquals(DType.FLOAT32, m.dtype());
        assertEquals(Device.CPU, m.device());
        gm.graph().lint();
    }

    @Test
    void compositesAreRecordedAsTheOpsTheyRunAndReplayBitwise() {
        Tensor w = Torch.tensor(new double[][] {{0.1, -0.2}, {0.3, 0.4}, {-0.5, 0.6}})
                .to(DType.FLOAT32);
        Function<Tensor[], Tensor[]> mlp = in -> {
            Tensor h = F.softmax(in[0].matmul(w).add(1.0).relu(), 1);
            return new Tensor[] {h, h.sum()};
        };
        Tensor[] eager = mlp.apply(new Tensor[] {x()});
        GraphModule gm = Fx.makeFx(mlp, x());
        assertEquals(
                """
                class GraphModule(torch.nn.Module):
                    def forward(self, arg0_1: "f32[2, 3]"):
                        _tensor_constant0: "f32[3, 2]" = self._tensor_constant0
                        mm: "f32[2, 2]" = torch.ops.aten.mm.default(arg0_1, _tensor_constant0)
                        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(mm, 1.0)
                        relu: "f32[2, 2]" = torch.ops.aten.relu.default(add)
                        softmax: "f32[2, 2]" = torch.ops.aten.softmax.int(relu, 1)
                        sum: "f32[]" = torch.ops.aten.sum.dim_IntList(softmax, None)
                        return (softmax, sum)
                """,
                gm.printReadable(),
                "matmul of two matrices is recorded as the mm it runs; the weight, made outside, is a constant");
        assertEquals(List.of("_tensor_constant0"), List.copyOf(gm.constants().keySet()));
        gm.graph().lint();
        Tensor[] replayed = gm.call(x());
        for (int i = 0; i < eager.length; i++) {
            assertEquals(TensorMeta.of(eager[i]), TensorMeta.of(replayed[i]));
            assertArrayEquals(bits(eager[i]), bits(replayed[i]));
        }
    }

    /** The scalar base comes first, as in its schema; copy_ and zero_ record the out= form of their functional op. */
    @Test
    void foreachCallsFollowTheirSchemasAndReplayBitwise() {
        Function<Tensor[], Tensor[]> fn = in -> {
            List<Tensor> powered = Foreach.pow(2.0, List.of(in[0], in[1]));
            List<Tensor> target = Foreach.zero_(Foreach.clone(List.of(in[0], in[1])));
            Foreach.copy_(target, powered);
            return target.toArray(Tensor[]::new);
        };
        Tensor[] eager = fn.apply(new Tensor[] {x(), y()});
        GraphModule gm = Fx.makeFx(fn, x(), y());
        gm.graph().lint();
        String code = gm.printReadable();
        assertTrue(code.contains("_foreach_pow.ScalarAndTensor(2.0, [arg0_1, arg1_1])"), code);
        assertTrue(code.contains("_foreach_copy.out("), code);
        Tensor[] replayed = gm.call(new Tensor[] {x(), y()});
        for (int i = 0; i < eager.length; i++) assertArrayEquals(bits(eager[i]), bits(replayed[i]));
    }

    @Test
    void multiOutputOpsAreReadWithGetitem() {
        GraphModule gm = Fx.makeFx(
                in -> {
                    var m = in[0].max(1);
                    return new Tensor[] {m.values(), m.indices()};
                },
                x());
        assertEquals("""
                class GraphModule(torch.nn.Module):
                    def forward(self, arg0_1: "f32[2, 3]"):
                        max = torch.ops.aten.max.dim(arg0_1, 1)
                        getitem: "f32[2]" = max[0]
                        getitem_1: "i64[2]" = max[1]
                        return (getitem, getitem_1)
                """, gm.printReadable());
        gm.graph().lint();
        List<Node> nodes = gm.graph().nodes();
        assertNull(nodes.get(1).meta(), "a tuple has no tensor metadata; its getitems have");
        assertEquals(Node.GETITEM, nodes.get(2).target());
        assertArrayEquals(x().max(1).indices().toLongArray(), gm.call(x())[1].toLongArray());
    }

    @Test
    void javaCodeReadingValuesRunsAtTraceTimeAndTheGraphHoldsTheBranchTaken() {
        Function<Tensor[], Tensor[]> fn = in -> new Tensor[] {in[0].sum().item() > 0 ? in[0].neg() : in[0].abs()};
        GraphModule gm = Fx.makeFx(fn, x());
        assertEquals("""
                class GraphModule(torch.nn.Module):
                    def forward(self, arg0_1: "f32[2, 3]"):
                        sum: "f32[]" = torch.ops.aten.sum.dim_IntList(arg0_1, None)
                        neg: "f32[2, 3]" = torch.ops.aten.neg.default(arg0_1)
                        return (neg,)
                """, gm.printReadable());
        assertEquals(1, DeadCodeElimination.run(gm.graph()), "the sum, whose value only Java read");
    }

    @Test
    void inPlaceCallsAreRecordedAsMutations() {
        GraphModule gm = Fx.makeFx(in -> new Tensor[] {in[0].clone().add_(in[1])}, x(), y());
        assertEquals("""
                class GraphModule(torch.nn.Module):
                    def forward(self, arg0_1: "f32[2, 3]", arg1_1: "f32[2, 3]"):
                        _to_copy: "f32[2, 3]" = torch.ops.aten._to_copy.default(arg0_1)
                        add_: "f32[2, 3]" = torch.ops.aten.add_.Tensor(_to_copy, arg1_1)
                        return (add_,)
                """, gm.printReadable());
        assertEquals(Node.Form.IN_PLACE, gm.graph().nodes().get(3).form());
        gm.graph().lint();
        assertEquals(0, DeadCodeElimination.run(gm.graph()));
        assertArrayEquals(bits(x().add(y())), bits(gm.call(x(), y())[0]));
    }

    @Test
    void metaInputsGiveTheSameGraphAndMetadata() {
        Function<Tensor[], Tensor[]> fn =
                in -> new Tensor[] {in[0].t().matmul(in[1]).sum(0)};
        GraphModule cpu = Fx.makeFx(fn, x(), y());
        GraphModule meta = Fx.makeFx(fn, x().to(Device.META), y().to(Device.META));
        List<Node> c = cpu.graph().nodes(), m = meta.graph().nodes();
        assertEquals(c.size(), m.size());
        for (int i = 0; i < c.size(); i++) {
            assertEquals(c.get(i).target(), m.get(i).target());
            if (c.get(i).meta() != null)
                assertEquals(c.get(i).meta(), m.get(i).meta().on(Device.CPU));
        }
        assertEquals(Device.META, m.get(2).meta().device());
        assertEquals(cpu.printReadable(), meta.printReadable());
    }

    @Test
    void requiresGradIsRecordedUnderTheGradModeGiven() {
        Tensor a = x().requiresGrad(true);
        GraphModule gm = Fx.makeFx(in -> new Tensor[] {in[0].mul(2.0)}, a);
        assertTrue(gm.graph().nodes().get(0).meta().requiresGrad());
        assertTrue(gm.graph().nodes().get(1).meta().requiresGrad());
        GraphModule noGrad;
        try (var _ = Torch.noGrad()) {
            noGrad = Fx.makeFx(in -> new Tensor[] {in[0].mul(2.0)}, a);
        }
        assertFalse(noGrad.graph().nodes().get(1).meta().requiresGrad());
    }

    @Test
    void randomOpsReplayUnderTheSameSeed() {
        Function<Tensor[], Tensor[]> fn = in -> new Tensor[] {Torch.rand(2, 3).add(in[0])};
        Torch.manualSeed(7);
        Tensor eager = fn.apply(new Tensor[] {x()})[0];
        GraphModule gm = Fx.makeFx(fn, x());
        assertEquals("aten.rand.generator", gm.graph().nodes().get(1).target());
        Torch.manualSeed(7);
        assertArrayEquals(bits(eager), bits(gm.call(x())[0]));
        assertNotEquals(bits(eager)[0], bits(gm.call(x())[0])[0], "a second call draws new numbers");
    }
}
