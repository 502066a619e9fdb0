/** Multicall3's address on nearly every EVM chain; the local chain puts ours there too. */
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
/** Where graduation sends the DEX pair's LP tokens. */
export const DEAD_ADDRESS = "0x000000000000000000000000000000000000dEaD" as const;
