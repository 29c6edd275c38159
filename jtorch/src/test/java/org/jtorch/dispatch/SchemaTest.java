package org.jtorch.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.dispatch.SchemaType.Base;
import org.jtorch.dispatch.SchemaType.BaseType;
import org.jtorch.dispatch.SchemaType.ListType;
import org.jtorch.dispatch.SchemaType.OptionalType;
import org.jtorch.ops.OpDef;
import org.junit.jupiter.api.Test;

/** The schema parser on schemas from PyTorch's {@code native_functions.yaml}. */
class SchemaTest {
    /** Real schemas, in the canonical form PyTorch prints (namespace omitted: {@code aten}). */
    static final List<String> PYTORCH = List.of(
            "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
            "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
            "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
            "split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]",
            "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
            "layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
                    + "float eps=1e-05, bool cudnn_enable=True) -> Tensor",
            "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) "
                    + "-> Tensor",
            "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
                    + "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
            "randint(SymInt high, SymInt[] size, *, ScalarType? dtype=long, Layout? layout=strided, "
                    + "Device? device=None, bool? pin_memory=None) -> Tensor",
            "_foreach_add_.Scalar(Tensor(a!)[] self, Scalar scalar) -> ()",
            "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
            "gelu(Tensor self, *, str approximate='none') -> Tensor",
            "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, "
                    + "SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
            "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, "
                    + "bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
            "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
            "rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, "
                    + "Generator? generator=None) -> Tensor",
            "sort.values_stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False, Tensor(a!) values, "
                    + "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)",
            "unbind.Dimname(Tensor(a -> *) self, Dimname dim) -> Tensor(a)[]",
            "roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor",
            "linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)",
            "to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, "
                    + "MemoryFormat? memory_format=None) -> Tensor(a)",
            "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
            "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor");

    @Test
    void roundTripsEveryRealSchema() {
        for (String s : PYTORCH) {
            Schema parsed = Schema.parse(s);
            assertEquals("aten::" + s, parsed.toString());
            assertEquals(parsed, Schema.parse(parsed.toString()));
        }
    }

    @Test
    void namesAndOverloads() {
        Schema add = Schema.parse(PYTORCH.get(0));
        assertEquals("aten", add.namespace());
        assertEquals("add", add.name());
        assertEquals("Tensor", add.overloadName());
        assertEquals("add.Tensor", add.operatorName());
        assertEquals("aten::add.Tensor", add.qualifiedName());
        Schema custom = Schema.parse("mylib::noisy.default(Tensor x) -> Tensor");
        assertEquals("mylib::noisy", custom.qualifiedName(), "Python's .default is the unnamed overload");
        assertEquals("mylib::noisy(Tensor x) -> Tensor", custom.toString());
        assertEquals("", Schema.parse("mm(Tensor self, Tensor mat2) -> Tensor").overloadName());
    }

    @Test
    void typedArguments() {
        Schema empty = Schema.parse(PYTORCH.get(7));
        assertEquals(
                new ListType(new BaseType(Base.SYM_INT), 0),
                empty.arguments().get(0).type());
        assertEquals(
                new OptionalType(new BaseType(Base.SCALAR_TYPE)),
                empty.arguments().get(1).type());
        Schema index = Schema.parse(PYTORCH.get(10));
        SchemaType indices = index.arguments().get(1).type();
        assertEquals(new ListType(new OptionalType(new BaseType(Base.TENSOR)), 0), indices);
        assertTrue(indices.holdsTensors());
        assertFalse(indices.isTensor());
        assertTrue(index.arguments().get(0).type().isTensor());
        Schema conv = Schema.parse(PYTORCH.get(12));
        assertEquals(
                new ListType(new BaseType(Base.SYM_INT), 2),
                conv.arguments().get(3).type());
        assertEquals(Base.SYM_INT, conv.arguments().get(3).type().base());
    }

    @Test
    void defaultsAreTypedValues() {
        List<Schema.Argument> ln = Schema.parse(PYTORCH.get(5)).arguments();
        assertNull(ln.get(0).defaultValue());
        assertFalse(ln.get(0).hasDefault());
        assertEquals(SchemaValue.NONE, ln.get(2).defaultValue());
        assertEquals(new SchemaValue.Float(1e-5), ln.get(4).defaultValue());
        assertEquals(new SchemaValue.Bool(true), ln.get(5).defaultValue());
        List<Schema.Argument> nll = Schema.parse(PYTORCH.get(6)).arguments();
        assertEquals(new SchemaValue.Identifier("Mean"), nll.get(3).defaultValue());
        assertEquals(new SchemaValue.Int(-100), nll.get(4).defaultValue());
        assertEquals(
                new SchemaValue.Str("none"),
                Schema.parse(PYTORCH.get(11)).arguments().get(1).defaultValue());
        SchemaValue noDims = Schema.parse(PYTORCH.get(18)).arguments().get(2).defaultValue();
        assertEquals(new SchemaValue.ListOf(List.of()), noDims);
        assertEquals(
                new SchemaValue.Int(1),
                Schema.parse(PYTORCH.get(12)).arguments().get(3).defaultValue());
        Schema lists = Schema.parse("f(int[] a=[0, -1], float b=-inf, float c=0.5, str d=\"it's\") -> Tensor");
        assertEquals(
                new SchemaValue.ListOf(List.of(new SchemaValue.Int(0), new SchemaValue.Int(-1))),
                lists.arguments().get(0).defaultValue());
        assertEquals(
                new SchemaValue.Float(Double.NEGATIVE_INFINITY),
                lists.arguments().get(1).defaultValue());
        assertEquals("aten::f(int[] a=[0, -1], float b=-inf, float c=0.5, str d='it\\'s') -> Tensor", lists.toString());
        assertEquals(lists, Schema.parse(lists.toString()));
    }

    @Test
    void kwargOnlyArguments() {
        Schema add = Schema.parse(PYTORCH.get(0));
        assertEquals(
                List.of(false, false, true),
                add.arguments().stream().map(Schema.Argument::kwargOnly).toList());
        assertEquals(2, add.positional().size());
        Schema sort = Schema.parse(PYTORCH.get(16));
        assertTrue(sort.arguments().stream().skip(1).allMatch(Schema.Argument::kwargOnly));
        assertFalse(sort.arguments().get(1).hasDefault(), "a kwarg-only argument may have no default");
    }

    @Test
    void aliasAnnotations() {
        Schema inplace = Schema.parse(PYTORCH.get(1));
        assertTrue(inplace.isInplace());
        assertFalse(inplace.isOut());
        assertEquals(
                new Schema.Alias(List.of("a"), true, List.of()),
                inplace.arguments().get(0).alias());
        assertTrue(inplace.arguments().get(0).isMutable());
        assertTrue(inplace.returnsAlias());
        Schema out = Schema.parse(PYTORCH.get(2));
        assertTrue(out.isOut());
        assertFalse(out.isInplace());
        Schema split = Schema.parse(PYTORCH.get(3));
        assertEquals(
                new Schema.Alias(List.of("a"), false, List.of("*")),
                split.arguments().get(0).alias());
        assertFalse(split.isMutable());
        assertEquals(
                new ListType(new BaseType(Base.TENSOR), 0),
                split.returns().get(0).type());
        assertEquals(
                new Schema.Alias(List.of("a"), false, List.of()),
                split.returns().get(0).alias());
        Schema foreach = Schema.parse(PYTORCH.get(9));
        assertTrue(foreach.arguments().get(0).isMutable());
        assertTrue(foreach.returns().isEmpty());
        assertFalse(Schema.parse(PYTORCH.get(0)).isMutable());
        assertFalse(Schema.parse("__and__.Tensor(Tensor self, Tensor other) -> Tensor")
                .isInplace());
    }

    @Test
    void returns() {
        Schema max = Schema.parse(PYTORCH.get(4));
        assertEquals(
                List.of("values", "indices"),
                max.returns().stream().map(Schema.Return::name).toList());
        assertTrue(max.returnsTuple());
        Schema bn = Schema.parse(PYTORCH.get(13));
        assertEquals(3, bn.returns().size());
        assertNull(bn.returns().get(0).name());
        assertFalse(Schema.parse(PYTORCH.get(0)).returnsTuple());
        assertTrue(Schema.parse(PYTORCH.get(9)).returnsTuple());
    }

    @Test
    void aMalformedSchemaFailsTheOpDefinition() {
        String bad = "broken(Tensor self -> Tensor";
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> OpDef.composite(bad, args -> args[0]));
        assertTrue(e.getMessage().startsWith("malformed schema '" + bad + "'"), e.getMessage());
    }

    @Test
    void malformedSchemasNameTheSchemaAndTheFault() {
        String[][] bad = {
            {"add(Tensor self", "expected ')'"},
            {"add(Tensor self) Tensor", "expected '->'"},
            {"add(Tensr self) -> Tensor", "unknown type 'Tensr'"},
            {"add(Tensor) -> Tensor", "expected argument name"},
            {"add(Tensor self, Tensor self) -> Tensor", "duplicate argument 'self'"},
            {"add(int(a!) x) -> Tensor", "alias annotation on a non-tensor type"},
            {"add(Tensor self, int x=None) -> Tensor", "default None does not fit int x"},
            {"add(Tensor self, bool x=1.5) -> Tensor", "default 1.5 does not fit bool x"},
            {"add(Tensor self, str s='open) -> Tensor", "unterminated string"},
            {"add(Tensor self) -> Tensor out extra", "unexpected text after the returns"},
            {"(Tensor self) -> Tensor", "expected op name"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Schema.parse(b[0]), b[0]);
            assertTrue(e.getMessage().startsWith("malformed schema '" + b[0] + "'"), e.getMessage());
            assertTrue(e.getMessage().contains(b[1]), e.getMessage());
        }
    }
}
