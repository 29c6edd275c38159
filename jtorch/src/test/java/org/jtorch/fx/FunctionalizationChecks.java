package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jtorch.Generator;
import org.jtorch.Tensor;

/**
 * The checks every functionalization test makes: the traced function mutates something, the functionalized graph lints
 * and mutates nothing but its inputs, once each, in copies at the end, and it gives eager's outputs and leaves eager's
 * values in the inputs, bit for bit (the same kernels run, on the same values).
 */
final class FunctionalizationChecks {
    private FunctionalizationChecks() {}

    /**
     * Runs the checks on {@code fn}, each run on fresh inputs from {@code inputs}; returns the functionalized graph.
     */
    static GraphModule check(Function<Tensor[], Tensor[]> fn, Supplier<Tensor[]> inputs) {
        byte[] generator = Generator.defaultGenerator().getStateBytes();
        Tensor[] eagerInputs = inputs.get();
        Tensor[] eager = fn.apply(eagerInputs.clone());
        MemorySegment[] eagerBytes = new MemorySegment[eager.length];
        for (int i = 0; i < eager.length; i++) eagerBytes[i] = bytes(eager[i]);

        Generator.defaultGenerator().setState(generator);
        GraphModule traced = Fx.makeFx(fn, inputs.get());
        assertTrue(
                traced.graph().nodes().stream().anyMatch(n -> n.form() != Node.Form.FUNCTIONAL),
                () -> "the traced function mutates nothing:\n" + traced.printReadable());
        GraphModule f = Fx.functionalize(traced);
        f.graph().lint();
        checkOnlyEpilogueMutations(f);

        Generator.defaultGenerator().setState(generator);
        Tensor[] in = inputs.get();
        Tensor[] out = f.call(in.clone());
        assertEquals(eager.length, out.length, "number of outputs");
        for (int i = 0; i < eager.length; i++) {
            int k = i;
            assertEquals(TensorMeta.of(eager[i]).dtype(), out[i].dtype(), "dtype of output " + i);
            assertArrayEquals(eager[i].shape(), out[i].shape(), "shape of output " + i);
            long at = eagerBytes[i].mismatch(bytes(out[i]));
            assertEquals(-1L, at, () -> "output " + k + " differs from eager at byte " + at + ":\n" + f);
        }
        for (int i = 0; i < in.length; i++) {
            int k = i;
            long at = bytes(eagerInputs[i]).mismatch(bytes(in[i]));
            assertEquals(-1L, at, () -> "input " + k + " differs from eager's at byte " + at + ":\n" + f);
        }
        return f;
    }

    /**
     * The only calls that are not functional are {@code copy_}s ({@code aten._to_copy.out}) into distinct inputs, after
     * every other call and used by none, and no call is of an op that writes its arguments.
     */
    static void checkOnlyEpilogueMutations(GraphModule f) {
        List<Node> nodes = f.graph().nodes();
        Set<Node> written = new HashSet<>();
        boolean inEpilogue = false;
        for (Node n : nodes) {
            if (!n.op().equals(Node.CALL_FUNCTION)) continue;
            if (n.opDef() != null) assertFalse(n.opDef().schema().isMutable(), () -> n + " writes its arguments");
            if (n.form() == Node.Form.FUNCTIONAL) {
                assertFalse(inEpilogue, () -> n + " follows the epilogue:\n" + f);
                continue;
            }
            inEpilogue = true;
            assertEquals(Node.Form.OUT, n.form(), () -> n + " is a mutation other than an epilogue copy:\n" + f);
            assertEquals("aten._to_copy.out", n.target(), () -> n + " is not a copy:\n" + f);
            Node target = (Node) ((List<?>) n.args().getLast()).getFirst();
            assertTrue(
                    target.op().equals(Node.PLACEHOLDER) || target.op().equals(Node.GET_ATTR),
                    () -> n + " writes " + target + ", which is not an input:\n" + f);
            assertTrue(written.add(target), () -> target + " is written twice:\n" + f);
            assertTrue(n.users().isEmpty(), () -> n + " is used:\n" + f);
        }
    }

    /** The bytes of {@code t}'s elements in row-major order (NaN payloads and signs of zero included). */
    static MemorySegment bytes(Tensor t) {
        return t.contiguous().clone().impl().storage().segment();
    }
}
