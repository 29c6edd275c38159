package org.jtorch.dispatch;

import java.util.List;
import java.util.stream.Collectors;

/**
 * An op's signature, parsed once from PyTorch's schema string, e.g. {@code add.Tensor(Tensor self, Tensor other, *,
 * Scalar alpha=1) -> Tensor}: namespace, name, overload, typed arguments (with kwarg-only flag, default and alias
 * annotation) and typed returns. It is the op's identity ({@code aten::add.Tensor}) and what every rule that needs to
 * know an op's arguments reads, by type and position, never by re-reading the text.
 *
 * <p>{@link #toString()} renders the canonical string, as PyTorch prints an op's {@code _schema}.
 */
public record Schema(
        String namespace, String name, String overloadName, List<Argument> arguments, List<Return> returns) {
    public Schema {
        arguments = List.copyOf(arguments);
        returns = List.copyOf(returns);
    }

    /**
     * An alias annotation: {@code Tensor(a)} shares storage with set {@code a} (a view), {@code Tensor(a!)} is written
     * through ({@code write}), {@code Tensor(a -> *)} joins {@code after} (the wildcard set).
     */
    public record Alias(List<String> sets, boolean write, List<String> after) {
        public Alias {
            sets = List.copyOf(sets);
            after = List.copyOf(after);
        }

        @Override
        public String toString() {
            String s = String.join("|", sets) + (write ? "!" : "");
            return after.isEmpty() ? s : s + " -> " + String.join("|", after);
        }
    }

    /**
     * One argument: {@code defaultValue} is null when the argument has none; {@code alias} null when it is not
     * annotated; {@code kwargOnly} when it follows {@code *}.
     */
    public record Argument(String name, SchemaType type, Alias alias, SchemaValue defaultValue, boolean kwargOnly) {
        public boolean hasDefault() {
            return defaultValue != null;
        }

        /** Whether the op writes into this argument ({@code Tensor(a!)}). */
        public boolean isMutable() {
            return alias != null && alias.write();
        }

        @Override
        public String toString() {
            String s = typeText(type, alias) + " " + name;
            return defaultValue == null ? s : s + "=" + defaultValue;
        }
    }

    /** One return; {@code name} is null for an unnamed one. */
    public record Return(String name, SchemaType type, Alias alias) {
        @Override
        public String toString() {
            return name == null ? typeText(type, alias) : typeText(type, alias) + " " + name;
        }
    }

    /** Parses a schema; throws {@link IllegalArgumentException} naming the schema and the fault. */
    public static Schema parse(String text) {
        return SchemaParser.parse(text);
    }

    /** {@code add.Tensor}: name and overload, unique among one namespace's ops (torchgen's {@code OperatorName}). */
    public String operatorName() {
        return overloadName.isEmpty() ? name : name + "." + overloadName;
    }

    /** {@code aten::add.Tensor} ({@code aten::relu} for the default overload). */
    public String qualifiedName() {
        return namespace + "::" + operatorName();
    }

    /** Whether this is an in-place variant: {@code add_}, whose name ends in {@code _} (dunders excepted). */
    public boolean isInplace() {
        return name.endsWith("_") && !name.endsWith("__");
    }

    /** Whether this is an {@code out=} variant: it has a kwarg-only argument that it writes. */
    public boolean isOut() {
        return arguments.stream().anyMatch(a -> a.kwargOnly() && a.isMutable());
    }

    /** Whether any argument is written by the op. */
    public boolean isMutable() {
        return arguments.stream().anyMatch(Argument::isMutable);
    }

    /** Whether some return aliases an argument (a view, or an in-place op returning {@code self}). */
    public boolean returnsAlias() {
        return returns.stream().anyMatch(r -> r.alias() != null);
    }

    /** Whether the returns print as a tuple: none, several, or named. */
    public boolean returnsTuple() {
        return returns.size() != 1 || returns.get(0).name() != null;
    }

    /** The positional arguments (before {@code *}). */
    public List<Argument> positional() {
        return arguments.stream().filter(a -> !a.kwargOnly()).toList();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(qualifiedName()).append('(');
        boolean star = false;
        for (int i = 0; i < arguments.size(); i++) {
            Argument a = arguments.get(i);
            if (i > 0) sb.append(", ");
            if (a.kwargOnly() && !star) {
                sb.append("*, ");
                star = true;
            }
            sb.append(a);
        }
        sb.append(") -> ");
        if (returnsTuple()) {
            sb.append(returns.stream().map(Object::toString).collect(Collectors.joining(", ", "(", ")")));
        } else {
            sb.append(returns.get(0));
        }
        return sb.toString();
    }

    /** A type with its alias annotation after the base name: {@code Tensor(a!)[]}, {@code Tensor(a)?}. */
    private static String typeText(SchemaType type, Alias alias) {
        if (alias == null) return type.toString();
        return switch (type) {
            case SchemaType.BaseType b -> b + "(" + alias + ")";
            case SchemaType.OptionalType o -> typeText(o.element(), alias) + "?";
            case SchemaType.ListType l -> typeText(l.element(), alias) + "[" + (l.size() > 0 ? l.size() : "") + "]";
        };
    }
}
