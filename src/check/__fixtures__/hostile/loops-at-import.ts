// A module that never finishes loading: a synchronous loop at import, where no timer of its own can fire.
let spins = 0;
while (spins >= 0) spins = (spins + 1) % 1_000;

export const never = spins;
