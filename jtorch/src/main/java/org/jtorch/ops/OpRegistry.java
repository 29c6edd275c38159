package org.jtorch.ops;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one registry of ops, keyed by qualified name ({@code aten::add.Tensor}), as PyTorch's dispatcher holds what the
 * {@code TORCH_LIBRARY} blocks register at start-up.
 *
 * <p>How an op gets here: the factories {@link OpDef#structured}, {@link OpDef#view} and {@link OpDef#composite}
 * register the definition they make, so that declaring an op as a field of a family class is all it takes (a definition
 * cannot be forgotten); a second definition under a name already taken fails its family's class initialisation. Java
 * initialises a class on first use only, so {@link #all()} and {@link #lookup} first initialise every family of
 * {@link #FAMILIES}, the single list of the classes that declare ops. A family missing from that list would let
 * {@code all()} depend on what ran before: the registry refuses such an op at registration once the families are
 * loaded, and a test checks the list against the sources.
 *
 * <p>Loading the families also checks that every op is differentiable with a VJP, composite, not differentiable or
 * declares its derivative missing ({@link OpDef#derivativeNotImplemented}); the batch rules, written in
 * {@code org.jtorch.func}, attach later and are checked by a completeness test.
 *
 * <p>Ops that must stay out of every sweep (a test's probe of the dispatcher) are made with {@link OpDef.Unregistered}.
 *
 * <p>Custom ops ({@code torch.library}) are defined while the program runs, in namespaces of their own
 * ({@code mylib::mysin}): {@link #registerCustom} keeps them apart from the built-in set, so that {@link #all()} stays
 * the fixed {@code aten} set every sweep enumerates, while {@link #lookup} finds both. A custom op may not take the
 * {@code aten} namespace nor a name already defined.
 */
public final class OpRegistry {
    private OpRegistry() {}

    /** Every class that declares ops; initialising them registers every op. */
    private static final List<Class<?>> FAMILIES = List.of(
            ActivationOps.class,
            AdaptiveMaxPoolOps.class,
            ArrangeOps.class,
            AttentionOps.class,
            BackwardOps.class,
            ClampOps.class,
            CloseOps.class,
            ComplexOps.class,
            Conv3dOps.class,
            ConvOps.class,
            CopyOps.class,
            Creation.class,
            CtcLossOps.class,
            DeviceCopyOps.class,
            DistanceOps.class,
            DistributionOps.class,
            DtypeViewOps.class,
            EinsumOps.class,
            FeatureMetaOps.class,
            FoldOps.class,
            ForeachOps.class,
            IncompleteGammaOps.class,
            IndexReduceOps.class,
            FusedOptimizerOps.class,
            GridOps.class,
            GridSampleOps.class,
            IndexingOps.class,
            IsinOps.class,
            JoinOps.class,
            LinalgOps.class,
            LinalgSolveOps.class,
            MatmulOps.class,
            MaxUnpoolOps.class,
            NormOps.class,
            PadBackwardOps.class,
            PixelShuffleOps.class,
            PointwiseOps.class,
            Pool1dOps.class,
            Pool3dOps.class,
            PoolOps.class,
            PutOps.class,
            RandomOps.class,
            ReductionOps.class,
            ScatterOps.class,
            SearchOps.class,
            ShapeOps.class,
            SpecialPointwiseOps.class,
            StatisticsOps.class,
            SortOps.class,
            SpectralOps.class,
            TernaryOps.class,
            UnfoldOps.class,
            UpsampleOps.class,
            ViewCopyOps.class,
            ViewScatterOps.class);

    private static final Map<String, OpDef> OPS = new ConcurrentHashMap<>();
    /** Ops registered while the program runs, outside the built-in namespace; never enumerated by {@link #all()}. */
    private static final Map<String, OpDef> CUSTOM = new ConcurrentHashMap<>();
    /** The namespace of the built-in ops, which custom ops may not use. */
    private static final String BUILT_IN_NAMESPACE = "aten";
    /** Set once every family is initialised: from then on a new registration comes from an unlisted class. */
    private static volatile boolean loaded;

    /** The families' names, for the test that checks the list against the sources. */
    public static List<String> familyNames() {
        return FAMILIES.stream().map(Class::getSimpleName).toList();
    }

    /** Registers a definition under its qualified name; a name taken twice is an error. */
    static void register(OpDef op) {
        if (loaded) {
            throw new IllegalStateException(
                    op + " is registered after start-up: declare it in a class of " + "OpRegistry.FAMILIES");
        }
        OpDef before = OPS.putIfAbsent(op.qualifiedName(), op);
        if (before != null) throw new IllegalStateException(op.qualifiedName() + " is defined twice");
    }

    /**
     * Registers a custom op: its namespace must not be the built-in one, and its qualified name must be new. Unlike a
     * built-in op it may come at any time; it is seen by {@link #lookup} and {@link #custom()}, not by {@link #all()}.
     */
    static void registerCustom(OpDef op) {
        if (op.schema().namespace().equals(BUILT_IN_NAMESPACE)) {
            throw new IllegalArgumentException(op.qualifiedName() + ": the " + BUILT_IN_NAMESPACE
                    + " namespace is reserved for the built-in ops; define custom ops in a namespace of their own");
        }
        load();
        OpDef before = CUSTOM.putIfAbsent(op.qualifiedName(), op);
        if (before != null) throw new IllegalStateException(op.qualifiedName() + " is defined twice");
    }

    /** Puts {@code replacement} where {@code op} was registered: a definition wrapped while it is declared. */
    static void replace(OpDef op, OpDef replacement) {
        boolean sameName = op.qualifiedName().equals(replacement.qualifiedName());
        if (!sameName || !OPS.replace(op.qualifiedName(), op, replacement)) {
            throw new IllegalStateException(replacement.qualifiedName() + " does not replace a registered " + op);
        }
    }

    /** Every built-in op, ordered by qualified name (custom ops are listed by {@link #custom()}). */
    public static List<OpDef> all() {
        load();
        List<OpDef> ops = new ArrayList<>(OPS.values());
        ops.sort(Comparator.comparing(OpDef::qualifiedName));
        return List.copyOf(ops);
    }

    /** The custom ops registered so far, ordered by qualified name. */
    public static List<OpDef> custom() {
        List<OpDef> ops = new ArrayList<>(CUSTOM.values());
        ops.sort(Comparator.comparing(OpDef::qualifiedName));
        return List.copyOf(ops);
    }

    /**
     * The op registered as {@code qualifiedName} ({@code aten::name}, {@code aten::name.overload}, or a custom op's
     * {@code mylib::name}), or null.
     */
    public static OpDef lookup(String qualifiedName) {
        load();
        OpDef op = OPS.get(qualifiedName);
        return op != null ? op : CUSTOM.get(qualifiedName);
    }

    private static void load() {
        if (loaded) return;
        synchronized (OpRegistry.class) {
            if (loaded) return;
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            for (Class<?> family : FAMILIES) {
                try {
                    lookup.ensureInitialized(family);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
            loaded = true;
            checkDerivatives();
        }
    }

    /** Refuses a definition that autograd would record without a derivative and without saying so. */
    private static void checkDerivatives() {
        List<String> undeclared = new ArrayList<>();
        for (OpDef op : OPS.values()) {
            if (!op.derivativeIsDeclared()) undeclared.add(op.qualifiedName());
        }
        if (!undeclared.isEmpty()) {
            undeclared.sort(null);
            throw new IllegalStateException("ops without a VJP, a composite body, NOT_DIFFERENTIABLE or a declared "
                    + "missing derivative: " + undeclared);
        }
    }
}
