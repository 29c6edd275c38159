package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.PointwiseOps;
import org.junit.jupiter.api.Test;

/**
 * {@link Fx#functionalize}: in-place and {@code out=} calls on inputs, on views of inputs and on intermediates give a
 * graph whose only mutations are the epilogue copies into inputs, and which computes eager's outputs and leaves eager's
 * values in the inputs, bit for bit.
 */
class FunctionalizationTest {
    private static Tensor a() {
        return Torch.arange(12).to(DType.FLOAT32).mul(0.37).sub(1.5).view(3, 4);
    }

    private static Tensor b() {
        return Torch.arange(12).to(DType.FLOAT32).mul(-0.61).add(0.25).view(3, 4);
    }

    @Test
    void inPlaceOnAnInputBecomesAFunctionalCallAndOneEpilogueCopy() {
        GraphModule f = FunctionalizationChecks.check(
                in -> {
                    in[0].add_(in[1]);
                    return new Tensor[] {in[0].mul(2.0)};
                },
                () -> new Tensor[] {a(), b()});
        assertEquals("""
                class GraphModule(torch.nn.Module):
                    def forward(self, arg0_1: "f32[3, 4]", arg1_1: "f32[3, 4]"):
                        add: "f32[3, 4]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
                        mul: "f32[3, 4]" = torch.ops.aten.mul.Tensor(add, 2.0)
                        _to_copy: "f32[3, 4]" = torch.ops.aten._to_copy.out(add, dtype=torch.float32, size=[3, 4], \
                out=[arg0_1])
                        return (mul,)
                """, f.printReadable());
    }

    @Test
    void outCallIntoAnInputWritesThatInput() {
        FunctionalizationChecks.check(
                in -> {
                    Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {in[2]}, in[0], in[1]);
                    return new Tensor[] {in[2].exp()};
                },
                () -> new Tensor[] {a(), b(), Torch.zeros(3, 4)});
    }

    @Test
    void writesThroughViewsOfAnInputReachTheInputAndItsOtherViews() {
        FunctionalizationChecks.check(
                in -> {
                    Tensor x = in[0];
                    Tensor column = x.select(1, 2); // taken before the writes: must see them
                    x.select(0, 1).mul_(3.0);
                    x.slice(1, 0L, null, 2).add_(1.0);
                    x.t().diagonal().fill_(-7.0);
                    x.view(12).slice(0, 3L, 11L, 4).copy_(in[1].view(12).slice(0, 0, 2));
                    x.unsqueeze(0).permute(2, 0, 1).select(0, 3).add_(-0.5);
                    return new Tensor[] {column.mul(1.0), x.sum()};
                },
                () -> new Tensor[] {a(), b()});
    }

    @Test
    void intermediatesAreRewrittenWithoutAnyMutationLeft() {
        GraphModule f = FunctionalizationChecks.check(
                in -> {
                    Tensor t = in[0].mul(2.0);
                    t.transpose(0, 1).select(0, 0).fill_(5.0);
                    t.exp_();
                    t.select(0, 2).uniform_();
                    return new Tensor[] {t, t.narrow(0, 1, 2)};
                },
                () -> new Tensor[] {a()});
        assertTrue(f.graph().nodes().stream().allMatch(n -> n.form() == Node.Form.FUNCTIONAL), f::printReadable);
    }

    @Test
    void aWriteConvertsToTheWrittenTensorsDtype() {
        FunctionalizationChecks.check(
                in -> {
                    in[0].add_(in[1]);
                    in[0].select(0, 0).mul_(in[1].select(0, 2));
                    return new Tensor[] {in[0]};
                },
                () -> new Tensor[] {a(), b().to(DType.FLOAT64)});
    }

    @Test
    void aWriteBroadcastsIntoTheWrittenTensor() {
        FunctionalizationChecks.check(
                in -> {
                    in[0].narrow(0, 1, 2).copy_(in[1]);
                    return new Tensor[] {in[0].neg()};
                },
                () -> new Tensor[] {a(), Torch.arange(4).to(DType.FLOAT32)});
    }

    @Test
    void writesThroughAsStridedOrComplexViewsAreRefused() {
        GraphModule strided = Fx.makeFx(
                in -> {
                    in[0].asStrided(new long[] {2, 2}, new long[] {1, 1}).add_(1.0);
                    return new Tensor[] {in[0]};
                },
                a());
        TorchException e = assertThrows(TorchException.class, () -> Fx.functionalize(strided));
        assertTrue(e.getMessage().contains("aten.as_strided.default"), e.getMessage());

        GraphModule real = Fx.makeFx(
                in -> {
                    Torch.viewAsReal(in[0]).mul_(2.0);
                    return new Tensor[] {in[0]};
                },
                Torch.complex(a(), b()));
        e = assertThrows(TorchException.class, () -> Fx.functionalize(real));
        assertTrue(e.getMessage().contains("aten.view_as_real.default"), e.getMessage());
    }

    @Test
    void theOriginalGraphIsLeftAsItWas() {
        GraphModule gm = Fx.makeFx(
                in -> {
                    in[0].exp_();
                    return new Tensor[] {in[0]};
                },
                a());
        String before = gm.printReadable();
        Fx.functionalize(gm);
        assertEquals(before, gm.printReadable());
        assertEquals(List.of(Node.Form.IN_PLACE), mutatingForms(gm));
    }

    private static List<Node.Form> mutatingForms(GraphModule gm) {
        return gm.graph().nodes().stream()
                .map(Node::form)
                .filter(f -> f != Node.Form.FUNCTIONAL)
                .toList();
    }
}
