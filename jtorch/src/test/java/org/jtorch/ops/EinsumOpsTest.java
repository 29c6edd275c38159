package org.jtorch.ops;

import static org.jtorch.ops.ShapeOpsTest.arange;
import static org.jtorch.ops.ShapeOpsTest.meta;
import static org.jtorch.ops.ShapeOpsTest.transposed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Tests for {@link EinsumOps} against PyTorch's own results ({@code golden/arrange.json}) and against a brute-force
 * Einstein sum written here: every assignment of every subscript is visited and the product of the operands' elements
 * is added to the output element the assignment names.
 */
class EinsumOpsTest {

    private static final Set<String> OPS = Set.of("einsum", "tensordot");

    @TestFactory
    Stream<DynamicTest> goldenCasesMatchPyTorch() {
        List<Case> cases = Golden.cases(ArrangeOpsTest.FIXTURE).stream()
                .filter(c -> OPS.contains(c.op()))
                .toList();
        assertTrue(cases.size() >= 80, "only " + cases.size() + " einsum/tensordot fixtures");
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> Golden.check(c, List.of(), false, () -> run(c))));
    }

    private static Object run(Case c) {
        Tensor[] tensors = new Tensor[c.argCount()];
        for (int i = 0; i < tensors.length; i++) tensors[i] = c.tensorArg(i);
        if (c.op().equals("einsum")) return EinsumOps.einsum((String) c.kwarg("equation"), tensors);
        if (!c.has("dims")) return EinsumOps.tensordot(tensors[0], tensors[1]);
        if (c.kwarg("dims") instanceof Number n) return EinsumOps.tensordot(tensors[0], tensors[1], n.intValue());
        List<?> dims = (List<?>) c.kwarg("dims");
        return EinsumOps.tensordot(tensors[0], tensors[1], ints((List<?>) dims.get(0)), ints((List<?>) dims.get(1)));
    }

    private static int[] ints(List<?> values) {
        int[] r = new int[values.size()];
        for (int i = 0; i < r.length; i++) r[i] = ((Number) values.get(i)).intValue();
        return r;
    }

    // ---- brute force ----------------------------------------------------------------------------

    /** An explicit-output equation without ellipsis, summed by visiting every subscript assignment. */
    private static double[] bruteForce(String equation, Tensor... operands) {
        String[] sides = equation.split("->", -1);
        String[] inputs = sides[0].split(",", -1);
        String output = sides[1];
        Map<Character, Long> sizes = new HashMap<>();
        for (int i = 0; i < inputs.length; i++) {
            for (int k = 0; k < inputs[i].length(); k++) sizes.put(inputs[i].charAt(k), operands[i].size(k));
        }
        char[] letters = new char[sizes.size()];
        int n = 0;
        for (char c : sizes.keySet()) letters[n++] = c;
        double[][] data = new double[operands.length][];
        for (int i = 0; i < operands.length; i++)
            data[i] = operands[i].contiguous().toDoubleArray();
        long outSize = 1;
        for (char c : output.toCharArray()) outSize *= sizes.get(c);
        double[] out = new double[(int) outSize];
        Map<Character, Long> value = new HashMap<>();
        long total = 1;
        for (char c : letters) total *= sizes.get(c);
        for (long a = 0; a < total; a++) {
            long rem = a;
            for (char c : letters) {
                value.put(c, rem % sizes.get(c));
                rem /= sizes.get(c);
            }
            double product = 1;
            for (int i = 0; i < operands.length; i++) product *= data[i][(int) offset(inputs[i], value, sizes)];
            out[(int) offset(output, value, sizes)] += product;
        }
        return out;
    }

    private static long offset(String subscripts, Map<Character, Long> value, Map<Character, Long> sizes) {
        long lin = 0;
        for (char c : subscripts.toCharArray()) lin = lin * sizes.get(c) + value.get(c);
        return lin;
    }

    private static Tensor random(Random rng, long... shape) {
        double[] v = new double[(int) Torch.zeros(shape).numel()];
        for (int i = 0; i < v.length; i++) v[i] = Math.round(rng.nextGaussian() * 8) / 4.0;
        return Torch.tensor(v, DType.FLOAT64, shape);
    }

    private static void assertClose(double[] expected, double[] actual, String what) {
        assertEquals(expected.length, actual.length, what + ": element count");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], 1e-9 * (1 + Math.abs(expected[i])), what + ": element " + i);
        }
    }

    @Test
    void einsumMatchesTheBruteForceSum() {
        Random rng = new Random(7);
        Object[][] cases = {
            {"ij,jk->ik", new long[][] {{3, 4}, {4, 2}}},
            {"bij,bjk->bik", new long[][] {{2, 3, 4}, {2, 4, 5}}},
            {"ii->", new long[][] {{4, 4}}},
            {"ii->i", new long[][] {{3, 3}}},
            {"iij,jk->ki", new long[][] {{3, 3, 2}, {2, 4}}},
            {"i,j->ij", new long[][] {{3}, {4}}},
            {"ij->", new long[][] {{3, 5}}},
            {"ijk,jkl->il", new long[][] {{2, 3, 4}, {3, 4, 2}}},
            {"abc,cd,de->abe", new long[][] {{2, 2, 3}, {3, 4}, {4, 2}}},
            {"ab,ab,ab->", new long[][] {{3, 2}, {3, 2}, {3, 2}}},
            {"ab,ab,ab->b", new long[][] {{3, 2}, {3, 2}, {3, 2}}},
            {"ijk->kji", new long[][] {{2, 3, 4}}},
            {"bn,anm,bm->ba", new long[][] {{2, 3}, {4, 3, 5}, {2, 5}}},
            {"ij,ij->ij", new long[][] {{2, 3}, {2, 3}}},
            {"ij,ji->", new long[][] {{2, 3}, {3, 2}}},
            {"aijb,bjc->cai", new long[][] {{2, 3, 2, 2}, {2, 2, 3}}},
            {"i,i,i,i->", new long[][] {{4}, {4}, {4}, {4}}},
        };
        for (Object[] c : cases) {
            String eq = (String) c[0];
            long[][] shapes = (long[][]) c[1];
            Tensor[] ops = new Tensor[shapes.length];
            for (int i = 0; i < ops.length; i++) {
                Tensor t = random(rng, shapes[i]);
                // every other operand as a non-contiguous view with the same logical values
                ops[i] = i % 2 == 1 && t.dim() >= 2
                        ? transposed(t.transpose(0, 1).contiguous(), 0, 1)
                        : t;
            }
            assertClose(bruteForce(eq, ops), EinsumOps.einsum(eq, ops).toDoubleArray(), eq);
        }
    }

    @Test
    void integerEinsumIsExactAndSumsPromoteLikeSum() {
        Tensor a = arange(DType.INT32, 3, 3);
        Tensor trace = EinsumOps.einsum("ii", a);
        assertEquals(DType.INT64, trace.dtype());
        assertEquals(12, trace.longItem());
        Tensor product = EinsumOps.einsum("ij,jk->ik", a, a);
        assertEquals(DType.INT32, product.dtype());
        assertArrayEquals(new long[] {15, 18, 21, 42, 54, 66, 69, 90, 111}, product.toLongArray());
    }

    @Test
    void permutingEinsumIsAView() {
        Tensor x = arange(DType.FLOAT32, 2, 3);
        Tensor t = EinsumOps.einsum("ij->ji", x);
        assertSame(x.untypedStorage(), t.untypedStorage());
        assertArrayEquals(new double[] {0, 3, 1, 4, 2, 5}, t.toDoubleArray());
    }

    @Test
    void einsumAndTensordotOnMetaTensorsGiveShapes() {
        Tensor out =
                EinsumOps.einsum("...ij,...jk->...ik", meta(DType.FLOAT32, 5, 1, 2, 3), meta(DType.FLOAT32, 4, 3, 6));
        assertEquals(Device.META, out.device());
        assertArrayEquals(new long[] {5, 4, 2, 6}, out.shape());
        assertArrayEquals(
                new long[] {3},
                EinsumOps.einsum("ii->i", meta(DType.FLOAT64, 3, 3)).shape());
        Tensor td = EinsumOps.tensordot(
                meta(DType.FLOAT32, 2, 3, 4), meta(DType.FLOAT32, 4, 3, 5), new int[] {1, 2}, new int[] {1, 0});
        assertArrayEquals(new long[] {2, 5}, td.shape());
    }

    @Test
    void tensordotMatchesTheBruteForceSum() {
        Random rng = new Random(11);
        Tensor a = random(rng, 3, 4, 5), b = random(rng, 4, 5, 2);
        assertClose(bruteForce("ijk,jkl->il", a, b), EinsumOps.tensordot(a, b).toDoubleArray(), "dims=2");
        Tensor c = random(rng, 5, 3);
        assertClose(
                bruteForce("ijk,kl->ijl", a, c), EinsumOps.tensordot(a, c, 1).toDoubleArray(), "dims=1");
        Tensor d = random(rng, 3, 5);
        assertClose(
                bruteForce("ijk,im->jkm", a, d),
                EinsumOps.tensordot(a, d, new int[] {0}, new int[] {0}).toDoubleArray(),
                "lists");
        assertArrayEquals(
                new long[] {3, 4, 5, 3, 5}, EinsumOps.tensordot(a, d, 0).shape());
    }

    @Test
    void errorsCarryPyTorch215Messages() {
        assertEquals(
                "einsum(): must provide at least one operand",
                assertThrows(TorchException.class, () -> EinsumOps.einsum("i")).getMessage());
        Tensor a = Torch.ones(3, 3);
        assertEquals(
                "both inputs should have same dtype",
                assertThrows(TorchException.class, () -> EinsumOps.tensordot(a, a.to(DType.FLOAT64), 1))
                        .getMessage());
        assertEquals(
                "tensordot expects dims < ndim_a or ndim_b, but got dims=3",
                assertThrows(TorchException.class, () -> EinsumOps.tensordot(a, a, 3))
                        .getMessage());
        // the products do not promote: einsum's bmm refuses mixed dtypes as bmm does
        assertEquals(
                "expected scalar type Int but found Double",
                assertThrows(
                                TorchException.class,
                                () -> EinsumOps.einsum("ij,jk", a.to(DType.INT32), a.to(DType.FLOAT64)))
                        .getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> EinsumOps.tensordot(a, a, new int[] {2}, new int[] {0}));
    }
}
