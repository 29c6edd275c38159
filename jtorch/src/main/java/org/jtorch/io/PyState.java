package org.jtorch.io;

/**
 * A Java object that {@code torch.save} writes as the plain structure PyTorch saves for it (maps, lists, tensors,
 * numbers), as Python pickles an object by what its {@code state_dict()} or {@code __reduce__} returns. An optimizer's
 * state dict is one: {@code Torch.save(Map.of("optimizer", opt.stateDict()), path)} writes PyTorch's layout.
 */
public interface PyState {
    /** The structure to write in place of this object. */
    Object toPyTorch();
}
