package org.jtorch.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.RoundingMode;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaValue;
import org.junit.jupiter.api.Test;

class CallFormatTest {
    private static final Tensor T = Torch.ones(2);

    private static String call(String schema, Object... args) {
        Schema s = Schema.parse(schema);
        return s.qualifiedName() + "(" + CallFormat.args(s, CallFormat.layout(s, args), args, t -> "T") + ")";
    }

    @Test
    void pythonFloatRepr() {
        // Expected strings printed by CPython's repr().
        double[] values = {
            6.0,
            0.1,
            1e-05,
            0.0001,
            1e16,
            1e15,
            123456789.125,
            -0.0,
            1.5e-310,
            Double.MAX_VALUE,
            2.5e-5,
            100.0,
            0.1 + 0.2,
            -3.75e-7,
            Double.MIN_VALUE,
            9999999999999998.0,
            12345.678
        };
        String[] python = {
            "6.0",
            "0.1",
            "1e-05",
            "0.0001",
            "1e+16",
            "1000000000000000.0",
            "123456789.125",
            "-0.0",
            "1.5e-310",
            "1.7976931348623157e+308",
            "2.5e-05",
            "100.0",
            "0.30000000000000004",
            "-3.75e-07",
            "5e-324",
            "9999999999999998.0",
            "12345.678"
        };
        for (int i = 0; i < values.length; i++)
            assertEquals(python[i], CallFormat.pyFloat(values[i]), "value " + values[i]);
        assertEquals("nan", CallFormat.pyFloat(Double.NaN));
        assertEquals("-inf", CallFormat.pyFloat(Double.NEGATIVE_INFINITY));
    }

    @Test
    void valuesAsPythonPrintsThem() {
        assertEquals("1j", CallFormat.str(Scalar.complex(0, 1), null));
        assertEquals("(1.5-2j)", CallFormat.str(Scalar.complex(1.5, -2), null));
        assertEquals("(-0+2j)", CallFormat.str(Scalar.complex(-0.0, 2), null));
        assertEquals("True", CallFormat.str(Scalar.of(true), null));
        assertEquals("18446744073709551615", CallFormat.str(Scalar.ofUnsigned(-1), null));
        assertEquals("None", CallFormat.str(null, null));
        assertEquals("torch.bfloat16", CallFormat.str(DType.BFLOAT16, null));
        assertEquals("meta", CallFormat.str(Device.META, null));
        assertEquals("[device(type='cpu')]", CallFormat.str(List.of(Device.CPU), null));
        assertEquals("floor", CallFormat.str(RoundingMode.FLOOR, null));
        assertEquals("['floor', 'it\\'s']", CallFormat.str(new Object[] {RoundingMode.FLOOR, "it's"}, null));
        assertEquals("[True, False]", CallFormat.str(new boolean[] {true, false}, null));
        assertEquals("[0.5, 1e-05]", CallFormat.str(new double[] {0.5, 1e-5}, null));
        assertEquals("('T', 'T')", CallFormat.tuple(List.of(T, T), t -> "T"));
        assertEquals("('T',)", CallFormat.tuple(List.of(T), t -> "T"));
    }

    @Test
    void dtypeAbbreviations() {
        assertEquals("b8", DType.BOOL.abbreviation());
        assertEquals("bf16", DType.BFLOAT16.abbreviation());
        assertEquals("f8e4m3fn", DType.FLOAT8_E4M3FN.abbreviation());
        assertEquals("c128", DType.COMPLEX128.abbreviation());
        assertEquals("u64", DType.UINT64.abbreviation());
    }

    @Test
    void argumentsAsTheDispatcherPassesThemToAMode() {
        String add = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
        assertEquals("aten::add.Tensor(T, T)", call(add, T, T));
        assertEquals("aten::add.Tensor(T, T)", call(add, T, T, 1L));
        assertEquals("aten::add.Tensor(T, T)", call(add, T, T, Scalar.of(1.0)));
        assertEquals("aten::add.Tensor(T, T, alpha=2)", call(add, T, T, 2L));
        String slice = "slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
                + "SymInt step=1) -> Tensor(a)";
        assertEquals("aten::slice.Tensor(T)", call(slice, T, 0L, null, null, 1L), "trailing defaults dropped");
        assertEquals(
                "aten::slice.Tensor(T, 0, None, 5)",
                call(slice, T, 0L, null, 5L, 1L),
                "defaults before a set value kept");
        String gelu = "gelu(Tensor self, *, str approximate='none') -> Tensor";
        assertEquals("aten::gelu(T)", call(gelu, T, "none"));
        assertEquals("aten::gelu(T, approximate=tanh)", call(gelu, T, "tanh"));
        String div = "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor";
        assertEquals("aten::div.Tensor_mode(T, T, rounding_mode=floor)", call(div, T, T, RoundingMode.FLOOR));
        assertEquals(
                "aten::cat(['T', 'T'])", call("cat(Tensor[] tensors, int dim=0) -> Tensor", new Tensor[] {T, T}, 0L));
        assertEquals(
                "aten::roll(T, [1])",
                call("roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor", T, new long[] {1}, new long[0]));
        assertEquals(
                "aten::mm(T, T, 7)",
                call("mm(Tensor self, Tensor mat2) -> Tensor", T, T, 7),
                "extra args print positionally");
    }

    @Test
    void defaults() {
        assertTrue(CallFormat.equalsDefault(false, new SchemaValue.Bool(false)));
        assertFalse(CallFormat.equalsDefault(true, new SchemaValue.Bool(false)));
        assertTrue(CallFormat.equalsDefault(null, SchemaValue.NONE));
        assertTrue(CallFormat.equalsDefault(10.0, new SchemaValue.Float(10.0)));
        assertTrue(CallFormat.equalsDefault(-1, new SchemaValue.Int(-1)));
        assertFalse(CallFormat.equalsDefault(true, new SchemaValue.Int(1)));
        assertTrue(CallFormat.equalsDefault(new int[0], new SchemaValue.ListOf(List.of())));
        SchemaValue zeroOne = new SchemaValue.ListOf(List.of(new SchemaValue.Int(0), new SchemaValue.Int(1)));
        assertTrue(CallFormat.equalsDefault(new long[] {0, 1}, zeroOne));
        assertFalse(CallFormat.equalsDefault(new long[] {1, 0}, zeroOne));
        assertTrue(CallFormat.equalsDefault(RoundingMode.NONE, new SchemaValue.Str("none")));
    }
}
