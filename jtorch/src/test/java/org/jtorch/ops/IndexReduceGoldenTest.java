package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code Tensor.unfold}, {@code torch.isin}, {@code index_reduce}, {@code put} and {@code scatter(reduce=)} against
 * PyTorch 2.13 (jtorch/src/test/python/make_golden_index_ops.py): values, gradients of the float64 inputs, and errors
 * in PyTorch's words.
 */
class IndexReduceGoldenTest {
    private static long l(Golden.Case c, String k) {
        return ((Number) c.kwarg(k)).longValue();
    }

    @SuppressWarnings("unchecked")
    private static Tensor index(Golden.Case c) {
        Object v = c.kwarg("index");
        List<Object> rows = (List<Object>) v;
        if (rows.isEmpty() || !(rows.get(0) instanceof List)) {
            return Torch.tensor(
                    rows.stream().mapToLong(x -> ((Number) x).longValue()).toArray());
        }
        long[][] m = new long[rows.size()][];
        for (int i = 0; i < m.length; i++)
            m[i] = ((List<Object>) rows.get(i))
                    .stream().mapToLong(x -> ((Number) x).longValue()).toArray();
        long[] flat = java.util.Arrays.stream(m)
                .flatMapToLong(java.util.Arrays::stream)
                .toArray();
        return Torch.tensor(flat).view(m.length, m[0].length);
    }

    static Tensor call(Golden.Case c, Tensor[] a) {
        return switch (c.op()) {
            case "unfold" ->
                (c.has("transposed") ? a[0].t() : a[0]).unfold((int) l(c, "dim"), l(c, "size"), l(c, "step"));
            case "isin" -> Torch.isin(a[0], a[1], (Boolean) c.kwarg("invert"));
            case "index_reduce" ->
                a[0].indexReduce((int) l(c, "dim"), index(c), a[1], (String) c.kwarg("reduce"), (Boolean)
                        c.kwarg("include_self"));
            case "put" -> a[0].put(index(c), a[1], (Boolean) c.kwarg("accumulate"));
            case "scatter" -> a[0].scatter((int) l(c, "dim"), index(c), a[1], (String) c.kwarg("reduce"));
            case "scatter_value" ->
                a[0].scatter((int) l(c, "dim"), index(c), ((Number) c.kwarg("value")).doubleValue(), (String)
                        c.kwarg("reduce"));
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> matchesPyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases("index_ops.json")) {
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                Tensor[] in = new Tensor[c.argCount()];
                Map<String, Object> out = (Map<String, Object>) c.out();
                List<Object> grads = c.expectsError() ? List.of() : (List<Object>) out.get("grads");
                for (int i = 0; i < in.length; i++) {
                    in[i] = c.tensorArg(i);
                    if (i < grads.size() && grads.get(i) != null) in[i].requiresGrad(true);
                }
                if (c.expectsError()) {
                    Golden.check(c, List.of(), false, () -> call(c, in));
                    return;
                }
                Tensor y = call(c, in);
                Golden.assertOutput(
                        new Golden.Case(c.id(), c.op(), c.args(), c.kwargs(), out.get("output"), null), y, false);
                List<Tensor> wrt = new ArrayList<>();
                for (int i = 0; i < in.length; i++) if (grads.get(i) != null) wrt.add(in[i]);
                if (wrt.isEmpty()) return;
                Map<String, Object> go = (Map<String, Object>) out.get("grad_output");
                List<Tensor> g = Autograd.grad(
                        List.of(y),
                        wrt,
                        Autograd.GradOptions.defaults()
                                .gradOutputs(List.of(Golden.tensor(go)))
                                .allowUnused(true));
                int k = 0;
                for (int i = 0; i < in.length; i++) {
                    if (grads.get(i) == null) continue;
                    Map<String, Object> e = (Map<String, Object>) grads.get(i);
                    Golden.assertOutput(
                            new Golden.Case(c.id() + " grad " + i, c.op(), c.args(), c.kwargs(), e, null),
                            g.get(k++),
                            false);
                }
            }));
        }
        assertTrue(tests.size() >= 35, "cases: " + tests.size());
        return tests.stream();
    }

    @Test
    void unfoldIsAViewAndInPlaceVariantsWriteThrough() {
        Tensor x = Torch.arange(0, 6, 1, org.jtorch.DType.FLOAT32);
        Tensor w = x.unfold(0, 2, 2);
        assertEquals(x.untypedStorage(), w.untypedStorage());
        w.select(0, 1).fill_(-1.0);
        assertEquals(-1.0, x.toDoubleArray()[2]);
        Tensor s = Torch.zeros(2, 2);
        s.put_(Torch.tensor(new long[] {3}), Torch.tensor(new float[] {5}), false);
        assertEquals(5.0, s.toDoubleArray()[3]);
        s.indexReduce_(0, Torch.tensor(new long[] {1}), Torch.ones(1, 2).mul(2.0), "amax", true);
        assertEquals(5.0, s.toDoubleArray()[3]);
        assertEquals(2.0, s.toDoubleArray()[2]);
        s.scatter_(
                1, Torch.tensor(new long[] {0, 0}).view(2, 1), Torch.ones(2, 1).mul(3.0), "multiply");
        assertEquals(6.0, s.toDoubleArray()[2]);
    }
}
