package org.jtorch.io;

import static org.jtorch.io.Opcodes.*;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pickle virtual machine that only builds data: containers, strings, numbers, and whatever its {@link Host} makes of
 * globals, calls and persistent ids. It never looks up a class or runs code; the host decides what a global means
 * (PyTorch's {@code _weights_only_unpickler}).
 *
 * <p>Input is hostile: every length is checked against the bytes left before anything is read or allocated, so the work
 * and memory of a load are linear in the size of the pickle. Dict keys and set items must be hashable values (as in
 * Python) whose comparison cost is bounded, so that no key can make a lookup slow. Malformed input raises
 * {@link UnpicklingException}.
 */
final class PickleReader {
    /** What globals, calls and persistent ids stand for. */
    interface Host {
        /** GLOBAL / STACK_GLOBAL: the value that the name {@code module.name} stands for, or an exception. */
        Object global(String module, String name);

        /** REDUCE: {@code callable(*args)}. */
        Object reduce(Object callable, PyTuple args);

        /** NEWOBJ: {@code cls.__new__(cls, *args)}. */
        Object newobj(Object cls, PyTuple args);

        /** BUILD: apply {@code state} to {@code instance}. */
        void build(Object instance, Object state);

        /** BINPERSID: the object a persistent id refers to. */
        Object persistentLoad(Object pid);
    }

    /** Largest dict key / set item tuple, counted with repetition: keeps hashing and equality cheap. */
    static final int MAX_KEY_NODES = 256;

    private static final int MAX_LINE = 4096;
    private static final int MAX_LONG_BYTES = 1 << 20;
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64_BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private final MemorySegment in;
    private final long end;
    private final String what;
    private final Host host;
    private final Budget budget;
    private long pos;
    private long opStart;
    private final Map<Long, Object> memo = new HashMap<>();
    private ArrayList<Object> stack = new ArrayList<>();
    private final ArrayList<ArrayList<Object>> metastack = new ArrayList<>();

    /** Reads the pickle in {@code in[start, end)}; {@code what} names it in messages ({@code "model.pt: data.pkl"}). */
    PickleReader(MemorySegment in, long start, long end, String what, Host host, Budget budget) {
        this.in = in;
        this.pos = start;
        this.end = end;
        this.what = what;
        this.host = host;
        this.budget = budget;
    }

    /** Offset just after the STOP of the last pickle read. */
    long position() {
        return pos;
    }

    /** Runs one pickle up to its STOP and returns its value. */
    Object load() {
        memo.clear();
        stack = new ArrayList<>();
        metastack.clear();
        for (; ; ) {
            opStart = pos;
            int op = u8();
            budget.charge(1);
            switch (op) {
                case PROTO -> {
                    int p = u8();
                    if (p > 5) throw corrupt("unsupported pickle protocol " + p);
                }
                case FRAME -> {
                    long n = i64();
                    if (n < 0 || n > end - pos) throw corrupt("frame of " + n + " bytes runs past the end");
                }
                case STOP -> {
                    return pop();
                }
                case MARK -> {
                    metastack.add(stack);
                    stack = new ArrayList<>();
                }
                case POP -> {
                    if (stack.isEmpty()) popMark();
                    else pop();
                }
                case POP_MARK -> popMark();
                case DUP -> push(peek());
                case NONE -> push(null);
                case NEWTRUE -> push(Boolean.TRUE);
                case NEWFALSE -> push(Boolean.FALSE);
                case BININT -> push((long) i32());
                case BININT1 -> push((long) u8());
                case BININT2 -> push((long) u16());
                case LONG1 -> push(decodeLong(u8()));
                case LONG4 -> push(decodeLong(i32()));
                case BINFLOAT -> push(Double.longBitsToDouble(read(I64_BE, 8)));
                case BINUNICODE -> push(utf8(u32()));
                case SHORT_BINUNICODE, SHORT_BINSTRING -> push(utf8(u8()));
                case BINUNICODE8 -> push(utf8(i64()));
                case BINSTRING -> push(utf8(i32()));
                case SHORT_BINBYTES -> push(bytes(u8()));
                case BINBYTES -> push(bytes(u32()));
                case BINBYTES8, BYTEARRAY8 -> push(bytes(i64()));
                case EMPTY_TUPLE -> push(PyTuple.of());
                case TUPLE -> push(PyTuple.of(popMark()));
                case TUPLE1 -> push(PyTuple.of(pop()));
                case TUPLE2 -> {
                    Object b = pop();
                    push(PyTuple.of(pop(), b));
                }
                case TUPLE3 -> {
                    Object c = pop();
                    Object b = pop();
                    push(PyTuple.of(pop(), b, c));
                }
                case EMPTY_LIST -> push(new ArrayList<>());
                case APPEND -> {
                    Object v = pop();
                    list(peek(), "append to").add(v);
                }
                case APPENDS -> {
                    List<Object> items = popMark();
                    list(peek(), "extend").addAll(items);
                }
                case EMPTY_DICT -> push(new LinkedHashMap<>());
                case SETITEM -> {
                    Object v = pop();
                    Object k = pop();
                    dict(peek(), "SETITEM").put(key(k), v);
                }
                case SETITEMS -> {
                    List<Object> items = popMark();
                    if (items.size() % 2 != 0) throw corrupt("SETITEMS with an odd number of items");
                    Map<Object, Object> d = dict(peek(), "SETITEMS");
                    for (int i = 0; i < items.size(); i += 2) d.put(key(items.get(i)), items.get(i + 1));
                }
                case EMPTY_SET -> push(new LinkedHashSet<>());
                case ADDITEMS -> {
                    List<Object> items = popMark();
                    if (!(peek() instanceof LinkedHashSet<?>))
                        throw corrupt("ADDITEMS needs a set, got " + PyRepr.typeName(peek()));
                    @SuppressWarnings("unchecked")
                    Set<Object> s = (Set<Object>) peek();
                    for (Object o : items) s.add(key(o));
                }
                case FROZENSET -> {
                    Set<Object> s = new LinkedHashSet<>();
                    for (Object o : popMark()) s.add(key(o));
                    push(Collections.unmodifiableSet(s));
                }
                case GLOBAL -> {
                    String module = line();
                    String name = line();
                    push(host.global(module, name));
                }
                case STACK_GLOBAL -> {
                    Object name = pop();
                    Object module = pop();
                    if (!(module instanceof String m) || !(name instanceof String n))
                        throw corrupt("STACK_GLOBAL needs two strings");
                    push(host.global(m, n));
                }
                case REDUCE -> {
                    Object args = pop();
                    Object callable = pop();
                    push(host.reduce(callable, tuple(args, "REDUCE")));
                }
                case NEWOBJ -> {
                    Object args = pop();
                    Object cls = pop();
                    push(host.newobj(cls, tuple(args, "NEWOBJ")));
                }
                case BUILD -> {
                    Object state = pop();
                    host.build(peek(), state);
                }
                case BINPERSID -> push(host.persistentLoad(pop()));
                case BINGET -> push(memoGet(u8()));
                case LONG_BINGET -> push(memoGet(u32()));
                case BINPUT -> memo.put((long) u8(), peek());
                case LONG_BINPUT -> memo.put(u32(), peek());
                case MEMOIZE -> memo.put((long) memo.size(), peek());
                default ->
                    throw new UnpicklingException(what + ": Unsupported operand " + op + describe(op) + " at byte "
                            + opStart + " (only data-building pickle opcodes are allowed)");
            }
        }
    }

    private static String describe(int op) {
        return op >= 0x20 && op < 0x7f ? " ('" + (char) op + "')" : "";
    }

    // ---- stack ----------------------------------------------------------------------------------

    private void push(Object o) {
        stack.add(o);
    }

    private Object pop() {
        if (stack.isEmpty()) throw corrupt("stack underflow");
        return stack.removeLast();
    }

    private Object peek() {
        if (stack.isEmpty()) throw corrupt("stack underflow");
        return stack.getLast();
    }

    private List<Object> popMark() {
        if (metastack.isEmpty()) throw corrupt("could not find MARK");
        List<Object> items = stack;
        budget.charge(items.size());
        stack = metastack.removeLast();
        return items;
    }

    private Object memoGet(long key) {
        Object v = memo.get(key);
        if (v == null && !memo.containsKey(key)) throw corrupt("memo key " + key + " was never stored");
        return v;
    }

    private PyTuple tuple(Object args, String op) {
        if (args instanceof PyTuple t) return t;
        throw corrupt(op + " arguments must be a tuple, got " + PyRepr.typeName(args));
    }

    @SuppressWarnings("unchecked")
    private List<Object> list(Object target, String verb) {
        if (target instanceof ArrayList<?> l) return (List<Object>) l;
        throw new UnpicklingException(what + ": Can only " + verb + " lists, but got " + PyRepr.typeName(target));
    }

    @SuppressWarnings("unchecked")
    private Map<Object, Object> dict(Object target, String op) {
        if (target instanceof LinkedHashMap<?, ?> m) return (Map<Object, Object>) m;
        throw new UnpicklingException(what + ": Can only " + op
                + " for dict, collections.OrderedDict, collections.Counter, but got " + PyRepr.typeName(target));
    }

    /**
     * Checks that {@code k} can be a dict key or set item: an immutable value (Python's hashable types that JTorch
     * represents by value), and for tuples a bounded size, so hashing and equality stay cheap.
     */
    private Object key(Object k) {
        return hashable(k, what, budget);
    }

    /**
     * {@link #key} for callers outside a pickle ({@code set(list)}); {@code what} names the file in messages. A key
     * costs its size: that bounds what comparing it with an equal key may cost.
     */
    static Object hashable(Object k, String what, Budget budget) {
        if (k instanceof PyTuple t) {
            if (!t.hashable()) {
                throw new UnpicklingException(
                        what + ": unhashable type: a tuple holding a mutable value (dict keys and set items "
                                + "must be None, bool, int, float, complex, str, dtypes or tuples of these)");
            }
            if (t.treeSize() > MAX_KEY_NODES) {
                throw new UnpicklingException(
                        what + ": a tuple of " + t.treeSize() + " nodes is too large to be a dict key or set item");
            }
            budget.charge(t.treeSize());
        } else if (!PyTuple.isHashableScalar(k)) {
            throw new UnpicklingException(
                    what + ": unhashable type: '" + PyRepr.typeName(k) + "' (dict keys and set items "
                            + "must be None, bool, int, float, complex, str, dtypes or tuples of these)");
        }
        return k;
    }

    // ---- reading ----------------------------------------------------------------------------------

    private void need(long n) {
        if (n < 0 || n > end - pos)
            throw corrupt("needs " + n + " more bytes but only " + (end - pos) + " are left (truncated?)");
    }

    private int u8() {
        need(1);
        return in.get(ValueLayout.JAVA_BYTE, pos++) & 0xff;
    }

    private int u16() {
        need(2);
        int v = in.get(U16, pos) & 0xffff;
        pos += 2;
        return v;
    }

    private int i32() {
        need(4);
        int v = in.get(I32, pos);
        pos += 4;
        return v;
    }

    private long u32() {
        return i32() & 0xffffffffL;
    }

    private long i64() {
        return read(I64, 8);
    }

    private long read(ValueLayout.OfLong layout, int n) {
        need(n);
        long v = in.get(layout, pos);
        pos += n;
        return v;
    }

    private byte[] bytes(long n) {
        need(n);
        budget.charge(n);
        if (n > Integer.MAX_VALUE - 8) throw corrupt("a string of " + n + " bytes is too long");
        byte[] b = in.asSlice(pos, n).toArray(ValueLayout.JAVA_BYTE);
        pos += n;
        return b;
    }

    private String utf8(long n) {
        byte[] b = bytes(n);
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b))
                    .toString();
        } catch (CharacterCodingException e) {
            throw corrupt("string is not valid UTF-8");
        }
    }

    /** A text line of GLOBAL (module or name), without its newline. */
    private String line() {
        long limit = Math.min(end, pos + MAX_LINE);
        for (long i = pos; i < limit; i++) {
            if (in.get(ValueLayout.JAVA_BYTE, i) == '\n') {
                String s = utf8(i - pos);
                pos++;
                return s;
            }
        }
        throw corrupt("GLOBAL name is not terminated by a newline within " + MAX_LINE + " bytes");
    }

    /** pickle's {@code decode_long}: little-endian two's complement; an int as Long when it fits, else BigInteger. */
    private Object decodeLong(long n) {
        if (n < 0) throw corrupt("LONG with a negative byte count");
        if (n > MAX_LONG_BYTES) throw corrupt("an integer of " + n + " bytes is too long");
        byte[] le = bytes(n);
        if (le.length == 0) return 0L;
        byte[] be = new byte[le.length];
        for (int i = 0; i < le.length; i++) be[i] = le[le.length - 1 - i];
        BigInteger v = new BigInteger(be);
        return v.bitLength() < 64 ? (Object) v.longValue() : v;
    }

    private UnpicklingException corrupt(String detail) {
        return new UnpicklingException(what + ": malformed pickle (" + detail + ") at byte " + opStart
                + "; the file is corrupted or truncated");
    }
}
