/** SPEC §9: the selected bumper is read again this often while it runs. */
export const BUMPER_REFRESH_MS = 10_000;
/** SPEC §3: the BNB price when the server gave none. */
export const DEFAULT_BNB_PRICE_USD = 600;
