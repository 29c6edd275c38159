package org.jtorch.utils.data;

import org.jtorch.Generator;

/**
 * {@code torch.utils.data.get_worker_info()}'s result, seen from inside a loader worker: its {@code id} (0 to
 * {@code numWorkers - 1}), its {@code seed} ({@code base_seed + id}, the base seed drawn from the loader's generator
 * for each iterator), and the {@code dataset} it reads. {@code generator} is the worker's default generator, seeded
 * with {@code seed}: what random ops without a generator draw from on the worker's thread, as a PyTorch worker
 * process's {@code torch.manual_seed(seed)} makes its default generator.
 */
public record WorkerInfo(int id, int numWorkers, long seed, Object dataset, Generator generator) {}
