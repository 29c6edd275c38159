package org.jtorch.dispatch;

/**
 * The type of a schema argument or return, as PyTorch's schema grammar spells it: a base type ({@code Tensor},
 * {@code int}, {@code Scalar}...), an optional ({@code T?}) or a list ({@code T[]}, or {@code T[N]} of fixed length,
 * which also accepts one element that is repeated N times).
 */
public sealed interface SchemaType {
    /** The base types of PyTorch's schema language that JTorch's ops use or may meet. */
    enum Base {
        TENSOR("Tensor"),
        INT("int"),
        SYM_INT("SymInt"),
        FLOAT("float"),
        BOOL("bool"),
        SCALAR("Scalar"),
        SCALAR_TYPE("ScalarType"),
        STR("str"),
        GENERATOR("Generator"),
        DEVICE("Device"),
        LAYOUT("Layout"),
        MEMORY_FORMAT("MemoryFormat"),
        DIMNAME("Dimname"),
        COMPLEX("complex"),
        SYM_BOOL("SymBool"),
        STORAGE("Storage"),
        STREAM("Stream"),
        QSCHEME("QScheme"),
        DEVICE_INDEX("DeviceIndex");

        private final String spelling;

        Base(String spelling) {
            this.spelling = spelling;
        }

        /** The name as written in a schema. */
        public String spelling() {
            return spelling;
        }

        /** The base type spelled {@code s}, or null. */
        static Base of(String s) {
            for (Base b : values()) if (b.spelling.equals(s)) return b;
            return null;
        }
    }

    /** A plain base type. */
    record BaseType(Base base) implements SchemaType {
        @Override
        public String toString() {
            return base.spelling();
        }
    }

    /** {@code T?}: the argument may be None. */
    record OptionalType(SchemaType element) implements SchemaType {
        @Override
        public String toString() {
            return element + "?";
        }
    }

    /** {@code T[]}, or {@code T[size]} when {@code size > 0}. */
    record ListType(SchemaType element, int size) implements SchemaType {
        @Override
        public String toString() {
            return element + "[" + (size > 0 ? Integer.toString(size) : "") + "]";
        }
    }

    /** The base type under any optional and list wrappers. */
    default Base base() {
        return switch (this) {
            case BaseType b -> b.base();
            case OptionalType o -> o.element().base();
            case ListType l -> l.element().base();
        };
    }

    /** Whether this is exactly {@code Tensor} (not optional, not a list). */
    default boolean isTensor() {
        return this instanceof BaseType(Base b) && b == Base.TENSOR;
    }

    /** Whether values hold tensors: {@code Tensor}, {@code Tensor?}, {@code Tensor[]} or {@code Tensor?[]}. */
    default boolean holdsTensors() {
        return base() == Base.TENSOR;
    }

    /** Whether None is a value of this type. */
    default boolean isOptional() {
        return this instanceof OptionalType;
    }

    /** Whether this is a list (possibly of optionals), not counting an optional list. */
    default boolean isList() {
        return this instanceof ListType;
    }

    /** This type without an outer {@code ?}. */
    default SchemaType required() {
        return this instanceof OptionalType(SchemaType e) ? e : this;
    }
}
