package org.jtorch.nn.utils.prune;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;

/**
 * {@code torch.nn.utils.prune.BasePruningMethod}: computes a 0/1 mask for a tensor and, once applied to a module's
 * tensor {@code name}, is the module's forward pre-hook that recomputes {@code name = name_orig * name_mask} before
 * every forward. Applying keeps PyTorch's layout: the parameter {@code name} becomes {@code name_orig} (same object),
 * the mask is the buffer {@code name_mask}, and {@code name} itself is a plain attribute (in no state dict) that the
 * module's layers read. A second method applied to the same tensor joins the first in a {@link PruningContainer}, which
 * prunes only what is still unpruned.
 */
public abstract class BasePruningMethod implements Module.ForwardPreHook {
    /** {@code PRUNING_TYPE}: how a {@link PruningContainer} restricts a later method to the unpruned part. */
    public enum PruningType {
        /** Individual elements: the method sees the unpruned elements, flattened. */
        UNSTRUCTURED,
        /** Whole slices along {@link #dim()}: the method sees the channels not entirely pruned. */
        STRUCTURED,
        /** The whole tensor. */
        GLOBAL
    }

    String tensorName;
    private AutoCloseable handle;
    private Tensor current;

    /** For subclasses. */
    protected BasePruningMethod() {}

    /** {@code PRUNING_TYPE}. */
    public abstract PruningType pruningType();

    /** {@code dim}: the dimension a structured method prunes along. */
    public int dim() {
        throw new TorchException(
                "Pruning methods of PRUNING_TYPE \"structured\" need to have the attribute `dim`" + " defined.");
    }

    /**
     * {@code compute_mask(t, default_mask)}: the mask for {@code t} (the importance scores), starting from
     * {@code defaultMask}, the mask already in place.
     */
    public abstract Tensor computeMask(Tensor t, Tensor defaultMask);

    /** {@code _tensor_name}: the pruned tensor's name, or null before the method is applied. */
    public String tensorName() {
        return tensorName;
    }

    /** {@code apply_mask(module)}: {@code name_mask * name_orig}, the mask cast to the original's dtype. */
    public Tensor applyMask(Module module) {
        if (tensorName == null) throw new TorchException("Module " + module + " has to be pruned");
        Tensor mask = module.getBuffer(tensorName + "_mask");
        Tensor orig = module.getParameter(tensorName + "_orig");
        return mask.to(orig.dtype()).mul(orig);
    }

    /** {@code __call__(module, inputs)}: the pre-hook, recomputing the pruned tensor before each forward. */
    @Override
    public Tensor apply(Module module, Tensor input) {
        current = applyMask(module);
        return null;
    }

    /** {@code prune(t)}: {@code t} times its mask, as a new tensor. */
    public Tensor prune(Tensor t) {
        return prune(t, null, null);
    }

    /** {@code prune(t, default_mask, importance_scores)}: nulls mean a mask of ones and {@code t} itself. */
    public Tensor prune(Tensor t, Tensor defaultMask, Tensor importanceScores) {
        if (importanceScores != null && !importanceScores.size().equals(t.size())) {
            throw new TorchException("importance_scores should have the same shape as tensor t, got "
                    + importanceScores.size() + " vs " + t.size());
        }
        Tensor scores = importanceScores != null ? importanceScores : t;
        return t.mul(computeMask(scores, defaultMask != null ? defaultMask : Torch.onesLike(t)));
    }

    /**
     * {@code remove(module)}: makes the pruning permanent: {@code name_orig} takes the pruned values and is the
     * parameter {@code name} again (registered anew, last, as in PyTorch), the mask and the hook go away.
     */
    public void remove(Module module) {
        if (tensorName == null)
            throw new TorchException("Module " + module + " has to be pruned before pruning can be removed");
        Tensor weight = applyMask(module);
        module.computedAttribute(tensorName, null);
        Tensor orig = module.getParameter(tensorName + "_orig");
        orig.setData(weight.detach());
        module.deleteAttribute(tensorName + "_orig");
        module.deleteAttribute(tensorName + "_mask");
        module.registerParameter(tensorName, orig);
        unhook();
    }

    /**
     * {@code BasePruningMethod.apply(module, name, ..., importance_scores)}: prunes {@code module}'s tensor
     * {@code name} with {@code method} (joined with a method already there), installs the mask and the hook; a failure
     * while computing the mask leaves the module as it was. Returns the method in effect.
     */
    static BasePruningMethod apply(Module module, String name, BasePruningMethod method, Tensor importanceScores) {
        BasePruningMethod old = null;
        for (Module.ForwardPreHook hook : module.forwardPreHooks())
            if (hook instanceof BasePruningMethod m && name.equals(m.tensorName)) old = m;
        method.tensorName = name;
        BasePruningMethod effective = method;
        if (old instanceof PruningContainer container) {
            container.addPruningMethod(method);
            effective = container;
        } else if (old != null) {
            PruningContainer container = new PruningContainer(old);
            container.addPruningMethod(method);
            effective = container;
        }
        Tensor orig = module.getParameter(name);
        if (importanceScores != null && !importanceScores.size().equals(orig.size())) {
            throw new TorchException("importance_scores should have the same shape as parameter " + name + " of "
                    + module + ", got " + importanceScores.size() + " vs " + orig.size());
        }
        Tensor scores = importanceScores != null ? importanceScores : orig;
        boolean fresh = old == null;
        Tensor defaultMask;
        if (fresh) {
            module.registerParameter(name + "_orig", orig);
            module.deleteAttribute(name);
            defaultMask = Torch.onesLike(orig);
        } else {
            defaultMask = module.getBuffer(name + "_mask").detach().clone();
        }
        try {
            Tensor mask;
            try (var _ = Torch.noGrad()) {
                mask = effective.computeMask(scores.detach(), defaultMask);
            }
            module.registerBuffer(name + "_mask", mask);
        } catch (RuntimeException e) {
            if (fresh) {
                module.deleteAttribute(name + "_orig");
                module.registerParameter(name, orig);
            }
            throw e;
        }
        if (old != null) {
            old.unhook();
            module.computedAttribute(name, null);
        }
        BasePruningMethod hook = effective;
        hook.current = hook.applyMask(module);
        module.computedAttribute(name, () -> hook.current);
        hook.handle = module.registerForwardPreHook(hook);
        return hook;
    }

    private void unhook() {
        try {
            if (handle != null) handle.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        handle = null;
    }

    /** {@code _validate_pruning_amount_init}: a fraction in [0, 1] or a non-negative count. */
    static void checkAmount(Number amount) {
        boolean integral = amount instanceof Long || amount instanceof Integer;
        double v = amount.doubleValue();
        if (integral ? v < 0 : !(v >= 0.0 && v <= 1.0)) {
            throw new TorchException(
                    "amount=" + amount + " should either be a float in the range [0, 1] or a non-negative integer");
        }
    }

    /**
     * {@code _compute_nparams_toprune} and {@code _validate_pruning_amount}: a count as given, a fraction rounded half
     * to even (Python's {@code round}); a count above the size is refused.
     */
    static long toPrune(Number amount, long size) {
        if (amount instanceof Long || amount instanceof Integer) {
            if (amount.longValue() > size) {
                throw new TorchException(
                        "amount=" + amount + " should be smaller than the number of parameters to" + " prune=" + size);
            }
            return amount.longValue();
        }
        return (long) Math.rint(amount.doubleValue() * size);
    }
}
