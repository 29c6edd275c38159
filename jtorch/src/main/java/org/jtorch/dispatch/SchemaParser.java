package org.jtorch.dispatch;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads PyTorch's schema grammar (as {@code torchgen.model.FunctionSchema.parse} and the JIT's schema parser accept
 * it):
 *
 * <pre>
 * schema   := [ns '::'] name ['.' overload] '(' [arg {',' arg}] ')' '->' returns
 * arg      := '*' | type name ['=' value]
 * type     := Base ['(' alias ')'] {'?' | '[' [N] ']'}
 * alias    := set {'|' set} ['!'] ['->' set {'|' set}]      (set: a name or '*')
 * returns  := '(' [ret {',' ret}] ')' | ret                  ret := type [name]
 * value    := None | True | False | number | inf | nan | 'str' | "str" | '[' [value {',' value}] ']' | Identifier
 * </pre>
 *
 * and checks what the grammar alone cannot: unique argument names, annotations only on tensors, and defaults that fit
 * their argument's type.
 */
final class SchemaParser {
    private final String text;
    private int pos;

    private SchemaParser(String text) {
        this.text = text;
    }

    static Schema parse(String text) {
        if (text == null) throw new IllegalArgumentException("malformed schema: null");
        return new SchemaParser(text).schema();
    }

    private Schema schema() {
        skipSpace();
        String first = identifier("op name");
        String namespace = "aten", name = first;
        if (text.startsWith("::", pos)) {
            pos += 2;
            namespace = first;
            name = identifier("op name");
        }
        String overload = "";
        if (peek() == '.') {
            pos++;
            overload = identifier("overload name");
            if (overload.equals("default")) overload = ""; // how Python spells the default overload
        }
        expect('(');
        List<Schema.Argument> args = arguments();
        expect(')');
        skipSpace();
        if (!text.startsWith("->", pos)) throw error("expected '->' and the returns");
        pos += 2;
        List<Schema.Return> returns = returns();
        skipSpace();
        if (pos != text.length()) throw error("unexpected text after the returns");
        return new Schema(namespace, name, overload, args, returns);
    }

    private List<Schema.Argument> arguments() {
        List<Schema.Argument> args = new ArrayList<>();
        Set<String> names = new HashSet<>();
        boolean kwargOnly = false;
        skipSpace();
        if (peek() == ')') return args;
        do {
            skipSpace();
            if (peek() == '*' && !kwargOnly) {
                pos++;
                kwargOnly = true;
                continue;
            }
            int start = pos;
            Typed t = type();
            String name = identifier("argument name");
            if (!names.add(name)) throw error("duplicate argument '" + name + "'");
            SchemaValue def = null;
            skipSpace();
            if (peek() == '=') {
                pos++;
                def = value();
                checkDefault(name, t.type(), def, start);
            }
            args.add(new Schema.Argument(name, t.type(), t.alias(), def, kwargOnly));
        } while (consume(','));
        return args;
    }

    private List<Schema.Return> returns() {
        List<Schema.Return> returns = new ArrayList<>();
        skipSpace();
        if (peek() != '(') {
            Typed t = type();
            returns.add(new Schema.Return(optionalIdentifier(), t.type(), t.alias()));
            return returns;
        }
        pos++;
        skipSpace();
        if (consume(')')) return returns;
        do {
            Typed t = type();
            returns.add(new Schema.Return(optionalIdentifier(), t.type(), t.alias()));
        } while (consume(','));
        expect(')');
        return returns;
    }

    private record Typed(SchemaType type, Schema.Alias alias) {}

    private Typed type() {
        skipSpace();
        int start = pos;
        String baseName = identifier("type");
        SchemaType.Base base = SchemaType.Base.of(baseName);
        if (base == null) {
            pos = start;
            throw error("unknown type '" + baseName + "'");
        }
        Schema.Alias alias = null;
        if (peek() == '(') {
            if (base != SchemaType.Base.TENSOR) throw error("alias annotation on a non-tensor type");
            pos++;
            alias = alias();
            expect(')');
        }
        SchemaType type = new SchemaType.BaseType(base);
        while (true) {
            if (peek() == '?') {
                pos++;
                type = new SchemaType.OptionalType(type);
            } else if (peek() == '[') {
                pos++;
                int sizeStart = pos;
                while (pos < text.length() && Character.isDigit(text.charAt(pos))) pos++;
                int size = pos == sizeStart ? 0 : Integer.parseInt(text.substring(sizeStart, pos));
                if (pos > sizeStart && size == 0) throw error("a list of fixed length 0");
                if (peek() != ']') throw error("expected ']'");
                pos++;
                type = new SchemaType.ListType(type, size);
            } else {
                return new Typed(type, alias);
            }
        }
    }

    private Schema.Alias alias() {
        List<String> sets = aliasSets();
        skipSpace();
        boolean write = consume('!');
        List<String> after = List.of();
        skipSpace();
        if (text.startsWith("->", pos)) {
            pos += 2;
            after = aliasSets();
        }
        return new Schema.Alias(sets, write, after);
    }

    private List<String> aliasSets() {
        List<String> sets = new ArrayList<>();
        do {
            skipSpace();
            if (peek() == '*') {
                pos++;
                sets.add("*");
            } else {
                sets.add(identifier("alias set"));
            }
            skipSpace();
        } while (consume('|'));
        return sets;
    }

    private SchemaValue value() {
        skipSpace();
        char c = peek();
        if (c == '[') {
            pos++;
            List<SchemaValue> elements = new ArrayList<>();
            skipSpace();
            if (!consume(']')) {
                do {
                    elements.add(value());
                } while (consume(','));
                expect(']');
            }
            return new SchemaValue.ListOf(elements);
        }
        if (c == '\'' || c == '"') return string(c);
        if (c == '-' || c == '.' || Character.isDigit(c)) return number();
        String word = identifier("default value");
        return switch (word) {
            case "None" -> SchemaValue.NONE;
            case "True" -> new SchemaValue.Bool(true);
            case "False" -> new SchemaValue.Bool(false);
            case "inf" -> new SchemaValue.Float(Double.POSITIVE_INFINITY);
            case "nan" -> new SchemaValue.Float(Double.NaN);
            default -> new SchemaValue.Identifier(word);
        };
    }

    private SchemaValue string(char quote) {
        int start = pos++;
        StringBuilder sb = new StringBuilder();
        while (pos < text.length() && text.charAt(pos) != quote) {
            char ch = text.charAt(pos++);
            if (ch == '\\' && pos < text.length()) ch = text.charAt(pos++);
            sb.append(ch);
        }
        if (pos >= text.length()) {
            pos = start;
            throw error("unterminated string");
        }
        pos++;
        return new SchemaValue.Str(sb.toString());
    }

    private SchemaValue number() {
        int start = pos;
        if (peek() == '-') pos++;
        if (text.startsWith("inf", pos)) {
            pos += 3;
            return new SchemaValue.Float(Double.NEGATIVE_INFINITY);
        }
        while (pos < text.length() && isNumberChar(text.charAt(pos), text.charAt(pos - 1))) pos++;
        String lexeme = text.substring(start, pos);
        try {
            if (lexeme.matches("-?\\d+")) return new SchemaValue.Int(Long.parseLong(lexeme));
            return new SchemaValue.Float(Double.parseDouble(lexeme));
        } catch (NumberFormatException e) {
            pos = start;
            throw error("bad number '" + lexeme + "'");
        }
    }

    private static boolean isNumberChar(char c, char previous) {
        if (Character.isDigit(c) || c == '.' || c == 'e' || c == 'E') return true;
        return (c == '-' || c == '+') && (previous == 'e' || previous == 'E');
    }

    /** The checks PyTorch makes of a default: None only for optionals, lists only for lists, and so on. */
    private void checkDefault(String name, SchemaType type, SchemaValue def, int at) {
        SchemaType t = type.required();
        SchemaType.Base base = type.base();
        boolean fits =
                switch (def) {
                    case SchemaValue.None _ -> type.isOptional();
                    case SchemaValue.ListOf _ -> t.isList();
                    case SchemaValue.Str _ -> base == SchemaType.Base.STR;
                    case SchemaValue.Bool _ -> base == SchemaType.Base.BOOL || base == SchemaType.Base.SCALAR;
                    case SchemaValue.Int _ -> isNumeric(base) && (!t.isList() || ((SchemaType.ListType) t).size() > 0);
                    case SchemaValue.Float _ -> isNumeric(base) && base != SchemaType.Base.INT && !t.isList();
                    case SchemaValue.Identifier _ -> !type.holdsTensors();
                };
        if (!fits) {
            pos = at;
            throw error("default " + def + " does not fit " + type + " " + name);
        }
    }

    private static boolean isNumeric(SchemaType.Base b) {
        return switch (b) {
            case INT, SYM_INT, FLOAT, SCALAR, COMPLEX -> true;
            default -> false;
        };
    }

    // ---- lexing -------------------------------------------------------------------------------------

    private String identifier(String what) {
        skipSpace();
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) pos++;
        if (pos == start || Character.isDigit(text.charAt(start))) {
            pos = start;
            throw error("expected " + what);
        }
        return text.substring(start, pos);
    }

    private String optionalIdentifier() {
        skipSpace();
        char c = peek();
        return Character.isLetter(c) || c == '_' ? identifier("return name") : null;
    }

    private void expect(char c) {
        skipSpace();
        if (peek() != c) throw error("expected '" + c + "'");
        pos++;
    }

    private boolean consume(char c) {
        skipSpace();
        if (peek() != c) return false;
        pos++;
        return true;
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("malformed schema '" + text + "': " + what + " at column " + pos);
    }
}
