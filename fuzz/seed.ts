/** The fixed seed of every campaign unless `--seed` says otherwise: runs are reproducible. */
export const DEFAULT_SEED = 20_261_201;
