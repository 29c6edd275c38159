package org.jtorch.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The dependency graph of the compiled library, read from its class files (every class a class file's constant pool
 * names: instructions, field and method descriptors, generic signatures, annotations), so that nothing a source-level
 * import scan misses (fully qualified names, same-package references) escapes it.
 *
 * <p>Nodes are packages, with one refinement for the two packages whose membership the public API contract fixes across
 * layers: in {@code org.jtorch} and {@code org.jtorch.nn}, each smallest group of top-level classes that depend on one
 * another (most often a single class) is a node of its own. The contract puts in the root package both the value types
 * every layer uses ({@code DType}, {@code Device}, {@code TorchException}, {@code Warnings}) and the entry points that
 * reach every layer ({@code Tensor}'s methods, the {@code Torch} facade whose signatures name {@code nn.Module} and the
 * compile options); and in {@code nn} both the option types {@code nn.functional.F} takes ({@code Reduction},
 * {@code LinearCrossEntropyOptions}) and the modules written with {@code F}. With such a package as one node a cycle
 * would be forced by the contract itself; group by group, each class sits above what it reaches. In {@code nn}, the
 * groups that no other package uses (the modules) stay together in one node named {@code nn}.
 */
public final class DependencyGraph {
    /** The root package. */
    public static final String ROOT = "org.jtorch";

    /** The packages that are split into groups of mutually dependent classes (see the class comment). */
    public static final List<String> SPLIT_PACKAGES = List.of(ROOT, ROOT + ".nn");

    private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L(org/jtorch/[\\w/$]+)[;<]");

    /** node → nodes it depends on. */
    private final Map<String, Set<String>> edges = new TreeMap<>();
    /** (node, node) → one class-level reference that makes the edge, for messages. */
    private final Map<String, String> witnesses = new HashMap<>();

    private DependencyGraph() {}

    /** Reads every class file under {@code classesDir} (a compiled output directory). */
    public static DependencyGraph ofClasses(Path classesDir) {
        Map<String, Set<String>> references = new TreeMap<>(); // top-level class -> top-level classes
        try (Stream<Path> files = Files.walk(classesDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                ClassModel model = ClassFile.of().parse(Files.readAllBytes(f));
                String self = className(model.thisClass().asInternalName());
                if (self.endsWith("module-info") || self.endsWith("package-info")) continue;
                references.computeIfAbsent(topLevel(self), k -> new TreeSet<>()).addAll(referencedClasses(model));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> groups = new HashMap<>();
        for (String pkg : SPLIT_PACKAGES) groups.putAll(classGroups(pkg, references));
        // nn's groups that no other package uses are its modules, all at the top: drawn as the one node "nn"
        // (the root's helpers that only the root uses sit at different heights and stay apart)
        Set<String> usedOutside = new TreeSet<>();
        for (var e : references.entrySet()) {
            for (String t : e.getValue()) {
                if (groups.containsKey(t) && !packageOf(t).equals(packageOf(e.getKey())))
                    usedOutside.add(groups.get(t));
            }
        }
        for (var e : groups.entrySet()) {
            String pkg = packageOf(e.getKey());
            if (!pkg.equals(ROOT) && !usedOutside.contains(e.getValue())) e.setValue(pkg);
        }
        DependencyGraph g = new DependencyGraph();
        for (var e : references.entrySet()) {
            String self = e.getKey();
            String from = groups.getOrDefault(self, packageOf(self));
            g.edges.computeIfAbsent(from, k -> new TreeSet<>());
            for (String target : e.getValue()) {
                String to = groups.getOrDefault(target, packageOf(target));
                if (to.equals(from)) continue;
                g.edges.get(from).add(to);
                g.witnesses.putIfAbsent(from + " " + to, self + " -> " + target);
            }
        }
        for (Set<String> targets : List.copyOf(g.edges.values())) {
            for (String t : targets) g.edges.computeIfAbsent(t, k -> new TreeSet<>());
        }
        return g;
    }

    /**
     * The node of each top-level class of package {@code pkg}: the group of its classes it is mutually dependent with,
     * named {@code pkg.A+B} (a lone class: {@code pkg.A}).
     */
    private static Map<String, String> classGroups(String pkg, Map<String, Set<String>> references) {
        DependencyGraph roots = new DependencyGraph();
        for (var e : references.entrySet()) {
            if (!packageOf(e.getKey()).equals(pkg)) continue;
            Set<String> targets = roots.edges.computeIfAbsent(e.getKey(), k -> new TreeSet<>());
            for (String t : e.getValue()) {
                if (packageOf(t).equals(pkg) && !t.equals(e.getKey())) targets.add(t);
            }
        }
        for (Set<String> targets : List.copyOf(roots.edges.values())) {
            for (String t : targets) roots.edges.computeIfAbsent(t, k -> new TreeSet<>());
        }
        Map<String, String> group = new HashMap<>();
        for (String c : roots.edges.keySet()) group.put(c, c);
        for (List<String> cycle : roots.cycles()) {
            String name = pkg + "."
                    + String.join(
                            "+",
                            cycle.stream()
                                    .map(c -> c.substring(pkg.length() + 1))
                                    .toList());
            for (String c : cycle) group.put(c, name);
        }
        return group;
    }

    private static String packageOf(String className) {
        int dot = className.lastIndexOf('.');
        return dot < 0 ? "" : className.substring(0, dot);
    }

    /** The classes of {@code org.jtorch} a class file refers to, as dotted top-level class names. */
    private static Set<String> referencedClasses(ClassModel model) {
        Set<String> out = new TreeSet<>();
        for (PoolEntry e : model.constantPool()) {
            if (e instanceof ClassEntry c) {
                String name = c.asInternalName();
                // array classes appear as descriptors ("[Lorg/jtorch/Tensor;")
                if (name.startsWith("[")) addDescriptorClasses(name, out);
                else if (name.startsWith("org/jtorch/")) out.add(topLevel(className(name)));
            } else if (e instanceof Utf8Entry u) {
                addDescriptorClasses(u.stringValue(), out);
            }
        }
        return out;
    }

    private static void addDescriptorClasses(String text, Set<String> out) {
        if (text.indexOf("Lorg/jtorch/") < 0) return;
        Matcher m = DESCRIPTOR_CLASS.matcher(text);
        while (m.find()) out.add(topLevel(className(m.group(1))));
    }

    private static String className(String internalName) {
        return internalName.replace('/', '.');
    }

    private static String topLevel(String className) {
        int dollar = className.indexOf('$');
        return dollar < 0 ? className : className.substring(0, dollar);
    }

    /** Node → the nodes it depends on. */
    public Map<String, Set<String>> edges() {
        return edges;
    }

    /** Whether node {@code from} depends directly on node {@code to}. */
    public boolean dependsOn(String from, String to) {
        Set<String> t = edges.get(from);
        return t != null && t.contains(to);
    }

    /** One class-level reference behind the edge {@code from → to}, e.g. {@code a.B -> c.D}. */
    public String witness(String from, String to) {
        return witnesses.get(from + " " + to);
    }

    /** The strongly connected components with more than one node: each is a dependency cycle. */
    public List<List<String>> cycles() {
        // Tarjan's algorithm, iterative over an explicit stack of (node, next-edge iterator) frames
        Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<List<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String start : edges.keySet()) {
            if (index.containsKey(start)) continue;
            Deque<Frame> frames = new ArrayDeque<>();
            frames.push(new Frame(start, new ArrayList<>(edges.get(start))));
            index.put(start, counter[0]);
            low.put(start, counter[0]++);
            stack.push(start);
            onStack.add(start);
            while (!frames.isEmpty()) {
                Frame f = frames.peek();
                if (f.next < f.targets.size()) {
                    String w = f.targets.get(f.next++);
                    if (!index.containsKey(w)) {
                        index.put(w, counter[0]);
                        low.put(w, counter[0]++);
                        stack.push(w);
                        onStack.add(w);
                        frames.push(new Frame(w, new ArrayList<>(edges.get(w))));
                    } else if (onStack.contains(w)) {
                        low.put(f.node, Math.min(low.get(f.node), index.get(w)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty())
                    low.put(frames.peek().node, Math.min(low.get(frames.peek().node), low.get(f.node)));
                if (low.get(f.node).equals(index.get(f.node))) {
                    List<String> component = new ArrayList<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(f.node));
                    if (component.size() > 1) {
                        component.sort(null);
                        out.add(component);
                    }
                }
            }
        }
        return out;
    }

    private static final class Frame {
        final String node;
        final List<String> targets;
        int next;

        Frame(String node, List<String> targets) {
            this.node = node;
            this.targets = targets;
        }
    }

    /**
     * This graph with each cycle collapsed into one node named {@code {a, b, c}} (its members' labels): the
     * condensation, which is acyclic, so that a graph that still has cycles can be drawn in layers.
     */
    public DependencyGraph condensed() {
        Map<String, String> rename = new HashMap<>();
        for (List<String> cycle : cycles()) {
            String name = "{"
                    + String.join(
                            ", ", cycle.stream().map(DependencyGraph::label).toList()) + "}";
            for (String n : cycle) rename.put(n, name);
        }
        DependencyGraph g = new DependencyGraph();
        for (var e : edges.entrySet()) {
            String from = rename.getOrDefault(e.getKey(), e.getKey());
            Set<String> targets = g.edges.computeIfAbsent(from, k -> new TreeSet<>());
            for (String t : e.getValue()) {
                String to = rename.getOrDefault(t, t);
                if (!to.equals(from)) targets.add(to);
            }
        }
        return g;
    }

    /**
     * The layers of an acyclic graph, bottom first: layer 0 depends on nothing, layer n on nodes below n only (each
     * node at the height of its longest dependency chain).
     */
    public List<List<String>> layers() {
        if (!cycles().isEmpty()) throw new IllegalStateException("the graph has cycles: " + cycles());
        Map<String, Integer> height = new HashMap<>();
        for (String n : edges.keySet()) height(n, height);
        int max = height.values().stream().mapToInt(Integer::intValue).max().orElse(-1);
        List<List<String>> layers = new ArrayList<>();
        for (int i = 0; i <= max; i++) layers.add(new ArrayList<>());
        for (String n : edges.keySet()) layers.get(height.get(n)).add(n);
        return layers;
    }

    private int height(String n, Map<String, Integer> memo) {
        Integer h = memo.get(n);
        if (h != null) return h;
        int best = 0;
        for (String t : edges.get(n)) best = Math.max(best, height(t, memo) + 1);
        memo.put(n, best);
        return best;
    }

    /**
     * A Mermaid flowchart of the transitive reduction (an edge drawn only when no longer path connects the same two
     * nodes), bottom layer at the bottom. {@code org.jtorch.} is left off node labels.
     */
    public String mermaid() {
        List<List<String>> layers = layers();
        Map<String, Integer> height = new HashMap<>();
        for (int i = 0; i < layers.size(); i++) for (String n : layers.get(i)) height.put(n, i);
        StringBuilder sb = new StringBuilder("flowchart BT\n");
        Map<String, String> ids = new TreeMap<>();
        for (String n : edges.keySet()) ids.put(n, "n" + ids.size());
        for (var e : ids.entrySet())
            sb.append("  ")
                    .append(e.getValue())
                    .append("[\"")
                    .append(label(e.getKey()))
                    .append("\"]\n");
        for (String from : edges.keySet()) {
            for (String to : edges.get(from)) {
                if (!reachableAvoidingDirect(from, to)) {
                    sb.append("  ")
                            .append(ids.get(from))
                            .append(" --> ")
                            .append(ids.get(to))
                            .append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** Whether {@code to} is reachable from {@code from} by a path of two or more edges. */
    private boolean reachableAvoidingDirect(String from, String to) {
        Deque<String> work = new ArrayDeque<>();
        Set<String> seen = new TreeSet<>();
        for (String mid : edges.get(from)) if (!mid.equals(to)) work.push(mid);
        while (!work.isEmpty()) {
            String n = work.pop();
            if (n.equals(to)) return true;
            if (seen.add(n)) work.addAll(edges.get(n));
        }
        return false;
    }

    /** A node's name without the {@code org.jtorch.} prefix ({@code (root)} for a class of the root package). */
    public static String label(String node) {
        if (node.equals(ROOT)) return "(root)";
        if (node.startsWith("{")) return node;
        return node.startsWith(ROOT + ".") ? node.substring(ROOT.length() + 1) : node;
    }
}
