package org.jtorch.autograd;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jtorch.ops.OpDef;

/**
 * Options of {@link Checkpoint#checkpoint}: {@code preserve_rng_state}, {@code determinism_check}, and selective
 * checkpointing ({@code context_fn=partial(create_selective_checkpoint_contexts, policy, allow_cache_entry_mutation)}).
 * Only the non-reentrant variant exists.
 *
 * @param policy the selective checkpointing policy, or null to recompute every op
 * @param allowCacheEntryMutation allow a cached output to be modified in place before it is reused
 * @param preserveRngState restore the default generator's state for the recomputation
 * @param determinismCheck compare the recomputed output's shape and dtype with the forward's
 */
// A selective policy names ops by their definitions (PyTorch's OpOverload), which the module does not export:
// on the module path only a policy that does not look at the op compiles. This API needs an exported op handle.
@SuppressWarnings("exports")
public record CheckpointOptions(
        PolicyFn policy, boolean allowCacheEntryMutation, boolean preserveRngState, boolean determinismCheck) {
    /** {@code ctx} of a policy: which pass is asking ({@code SelectiveCheckpointContext.is_recompute}). */
    public record PolicyContext(boolean isRecompute) {}

    /** {@code policy_fn(ctx, op, *args)}: called for every op run inside the region, in forward and in recompute. */
    @FunctionalInterface
    public interface PolicyFn {
        /** Whether the output of {@code op}, called with {@code args}, is saved or recomputed. */
        CheckpointPolicy decide(PolicyContext ctx, OpDef op, Object[] args);
    }

    /** Plain checkpointing: everything is recomputed, RNG state preserved, determinism checked. */
    public static CheckpointOptions defaults() {
        return new CheckpointOptions(null, false, true, true);
    }

    /** Selective checkpointing with a policy function. */
    public static CheckpointOptions withPolicy(PolicyFn policy) {
        return defaults().policy(Objects.requireNonNull(policy, "policy"));
    }

    /** Selective checkpointing with a policy that looks at the op only. */
    public static CheckpointOptions withPolicy(java.util.function.Function<OpDef, CheckpointPolicy> policy) {
        Objects.requireNonNull(policy, "policy");
        return withPolicy((ctx, op, args) -> policy.apply(op));
    }

    /** The list form of {@code create_selective_checkpoint_contexts}: these ops are saved, all others recomputed. */
    public static CheckpointOptions saveOnly(OpDef... ops) {
        Set<OpDef> saved = Collections.newSetFromMap(new IdentityHashMap<>());
        saved.addAll(List.of(ops));
        return withPolicy(op -> saved.contains(op) ? CheckpointPolicy.MUST_SAVE : CheckpointPolicy.PREFER_RECOMPUTE);
    }

    /** These options with another policy (null: plain checkpointing). */
    public CheckpointOptions policy(PolicyFn p) {
        return new CheckpointOptions(p, allowCacheEntryMutation, preserveRngState, determinismCheck);
    }

    /** {@code allow_cache_entry_mutation}. */
    public CheckpointOptions allowCacheEntryMutation(boolean b) {
        return new CheckpointOptions(policy, b, preserveRngState, determinismCheck);
    }

    /** {@code preserve_rng_state}. */
    public CheckpointOptions preserveRngState(boolean b) {
        return new CheckpointOptions(policy, allowCacheEntryMutation, b, determinismCheck);
    }

    /** {@code determinism_check}: {@code 'default'} when true, {@code 'none'} when false. */
    public CheckpointOptions determinismCheck(boolean b) {
        return new CheckpointOptions(policy, allowCacheEntryMutation, preserveRngState, b);
    }
}
