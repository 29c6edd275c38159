package org.jtorch.io;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The user part of the weights-only allowlist. {@link Serialization#addSafeGlobals} entries are process-wide, as in
 * PyTorch. {@link Serialization#safeGlobals} scopes are thread-local (a deliberate difference: PyTorch's context
 * manager edits the process-wide list, so a scope opened on one thread would also open loads on every other thread).
 */
final class SafeGlobals {
    private static final Map<String, SafeGlobal> PROCESS = new LinkedHashMap<>();
    private static final ThreadLocal<Deque<SafeGlobalsScope>> SCOPES = ThreadLocal.withInitial(ArrayDeque::new);

    private SafeGlobals() {}

    static synchronized void add(List<SafeGlobal> globals) {
        for (SafeGlobal g : globals) PROCESS.put(g.name(), g);
    }

    static synchronized void clear() {
        PROCESS.clear();
    }

    static synchronized List<String> processNames() {
        return List.copyOf(PROCESS.keySet());
    }

    static SafeGlobalsScope push(List<SafeGlobal> globals) {
        SafeGlobalsScope s = new SafeGlobalsScope(List.copyOf(globals));
        SCOPES.get().push(s);
        return s;
    }

    static void pop(SafeGlobalsScope s) {
        Deque<SafeGlobalsScope> d = SCOPES.get();
        if (d.peek() != s)
            throw new IllegalStateException("safeGlobals scopes must be closed in reverse order of opening");
        d.pop();
    }

    /** What this thread may load now: process-wide entries, overridden by open scopes (innermost wins). */
    static Map<String, SafeGlobal> snapshot() {
        Map<String, SafeGlobal> all;
        synchronized (SafeGlobals.class) {
            all = new LinkedHashMap<>(PROCESS);
        }
        List<SafeGlobalsScope> scopes = new ArrayList<>(SCOPES.get());
        for (int i = scopes.size() - 1; i >= 0; i--) {
            for (SafeGlobal g : scopes.get(i).globals()) all.put(g.name(), g);
        }
        return all;
    }
}
